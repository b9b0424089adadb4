//! Whether a text is exactly an origin as a browser serialises it: the rule
//! the shell applies to `parentOrigin` before it trusts or answers anyone.

/// The longest `parentOrigin` read; real origins are far shorter.
pub const MAX_ORIGIN_LEN: usize = 2048;

/// Whether `text` is exactly a serialised http(s) origin as a browser writes
/// `MessageEvent.origin`: lower-case scheme and host, no path, no default
/// port. Pure string rules, stricter than the browser (hosts of ASCII letters,
/// digits, `.`, `-` and `_`, or a bracketed IPv6 literal); `startShell` also
/// asks the browser.
pub fn is_origin(text: &str) -> bool {
    if text.len() > MAX_ORIGIN_LEN {
        return false;
    }
    let (rest, default_port) = if let Some(rest) = text.strip_prefix("https://") {
        (rest, "443")
    } else if let Some(rest) = text.strip_prefix("http://") {
        (rest, "80")
    } else {
        return false;
    };
    let port = match rest.strip_prefix('[') {
        Some(inner) => match inner.split_once(']') {
            Some((literal, after)) => {
                let ipv6 = !literal.is_empty()
                    && literal
                        .bytes()
                        .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f' | b':' | b'.'));
                if !ipv6 {
                    return false;
                }
                after
            }
            None => return false,
        },
        None => {
            // split_at_checked, not split_at: `find` always lands on a char
            // boundary, but split_at's panic path would link core's char Debug
            // and unicode tables into the engine.
            let end = rest.find(':').unwrap_or(rest.len());
            let (host, after) = rest.split_at_checked(end).unwrap_or((rest, ""));
            let reg_name = !host.is_empty()
                && host.bytes().all(|b| {
                    b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'_')
                });
            if !reg_name {
                return false;
            }
            after
        }
    };
    match port.strip_prefix(':') {
        None => port.is_empty(),
        Some(digits) => {
            let canonical = !digits.is_empty()
                && digits.len() <= 5
                && digits.bytes().all(|b| b.is_ascii_digit())
                && (digits == "0" || !digits.starts_with('0'));
            canonical
                && digits != default_port
                && digits.parse::<u32>().is_ok_and(|port| port <= 65535)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_origin;

    #[test]
    fn serialised_origins_pass() {
        for good in [
            "https://app.example.com",
            "http://127.0.0.1:8080",
            "http://localhost:0",
            "https://[::1]:8443",
            "http://[2001:db8::1]",
            "https://host_1.example:65535",
            "http://svc.example:443",
        ] {
            assert!(is_origin(good), "{good}");
        }
    }

    #[test]
    fn anything_a_browser_would_not_write_as_an_origin_fails() {
        for bad in [
            "",
            "null",
            "*",
            "https://",
            "ftp://app.example.com",
            "HTTPS://app.example.com",
            "https://App.example.com",
            "https://app.example.com/",
            "https://app.example.com/path",
            "https://app.example.com?x",
            "https://app.example.com#x",
            "https://user@app.example.com",
            "https://app.example.com:443",
            "http://app.example.com:80",
            "https://app.example.com:",
            "https://app.example.com:080",
            "https://app.example.com:65536",
            "https://app.example.com:123456",
            "https://%65vil.com",
            "https://ev\u{200B}il.com",
            "https://ｅvil.com",
            "https://a<b",
            "http://[::1",
            "http://[]",
            "http://[::G]",
            "http://[::1]x",
            "https://app.example.com ",
        ] {
            assert!(!is_origin(bad), "{bad:?}");
        }
        assert!(!is_origin(&format!("https://{}", "a".repeat(3000))));
    }
}
