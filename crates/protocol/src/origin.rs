//! Whether a text is exactly an origin as a browser serialises it: the one
//! rule for a `parent_origin`, applied by the host before it writes one
//! into a shell page's policy (and says what to send instead), and by the
//! shell before it trusts or answers anyone. The shell compares it byte for
//! byte with `MessageEvent.origin` and posts its answers to it, so anything
//! a browser would never send there (an uppercase host, a default port, a
//! trailing slash) could never match; and it goes into the page's
//! `frame-ancestors`, whose hosts are letters, digits, '-' and '.'.

/// Far longer than any real origin; the value goes into the page.
pub const MAX_ORIGIN: usize = 300;

/// Why a `parent_origin` is not a browser-serialised origin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum OriginError {
    #[error("it is empty")]
    Empty,
    #[error("it is longer than {MAX_ORIGIN} bytes")]
    TooLong,
    #[error(
        "it contains whitespace or control characters; send the origin alone, as window.location.origin gives it"
    )]
    Space,
    #[error(
        "\"null\" is the opaque origin of sandboxed, file: and data: documents, which cannot be told apart; embed the card from a page served over http or https"
    )]
    Null,
    #[error("the scheme must be http or https, followed by ://")]
    Scheme,
    #[error("write the scheme in lowercase (http or https), as browsers do")]
    SchemeCase,
    #[error("a user name or password (anything before '@') is not part of an origin")]
    Userinfo,
    #[error(
        "nothing may follow the host and port: drop the path, the trailing slash, the query and the fragment"
    )]
    Path,
    #[error("the host is missing")]
    NoHost,
    #[error("write the host in lowercase, as browsers do")]
    HostCase,
    #[error(
        "the host may hold only a-z, 0-9, '-' and '.' (an international name in its xn-- form), or be an IPv6 address in brackets"
    )]
    HostChar,
    #[error("the host has an empty label (a leading, trailing or doubled '.')")]
    EmptyLabel,
    #[error(
        "an IPv6 host is written in brackets with lowercase hex digits, ':' and '.', e.g. http://[::1]:8080"
    )]
    Ipv6,
    #[error("the port must be a number from 1 to 65535 without leading zeros")]
    Port,
    #[error("browsers leave a scheme's default port out of an origin: drop :{0}")]
    DefaultPort(u16),
}

/// Accepts `scheme://host[:port]` as a browser serialises an origin: scheme
/// `http` or `https`; a host of lowercase ASCII letters, digits, `-` and `.`
/// without empty labels, or a bracketed IPv6 literal; a decimal port that
/// is not the scheme's default; nothing else.
pub fn check(origin: &str) -> Result<(), OriginError> {
    if origin.is_empty() {
        return Err(OriginError::Empty);
    }
    if origin.len() > MAX_ORIGIN {
        return Err(OriginError::TooLong);
    }
    if origin.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(OriginError::Space);
    }
    if origin.eq_ignore_ascii_case("null") {
        return Err(OriginError::Null);
    }
    let Some((scheme, rest)) = origin.split_once("://") else {
        return Err(OriginError::Scheme);
    };
    let default_port = match scheme {
        "http" => 80,
        "https" => 443,
        _ if scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https") => {
            return Err(OriginError::SchemeCase)
        }
        _ => return Err(OriginError::Scheme),
    };
    if rest.contains('@') {
        return Err(OriginError::Userinfo);
    }
    if rest.contains(['/', '\\', '?', '#']) {
        return Err(OriginError::Path);
    }
    let port = if let Some(literal) = rest.strip_prefix('[') {
        let Some((address, after)) = literal.split_once(']') else {
            return Err(OriginError::Ipv6);
        };
        let allowed = |b: u8| matches!(b, b'0'..=b'9' | b'a'..=b'f' | b':' | b'.');
        if !address.contains(':') || !address.bytes().all(allowed) {
            return Err(OriginError::Ipv6);
        }
        match after {
            "" => None,
            _ => match after.strip_prefix(':') {
                Some(port) => Some(port),
                None => return Err(OriginError::Ipv6),
            },
        }
    } else {
        let (host, port) = match rest.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (rest, None),
        };
        check_host(host)?;
        port
    };
    match port {
        None => Ok(()),
        Some(port) => check_port(port, default_port),
    }
}

fn check_host(host: &str) -> Result<(), OriginError> {
    if host.is_empty() {
        return Err(OriginError::NoHost);
    }
    for b in host.bytes() {
        match b {
            b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' => {}
            b'A'..=b'Z' => return Err(OriginError::HostCase),
            _ => return Err(OriginError::HostChar),
        }
    }
    if host.split('.').any(str::is_empty) {
        return Err(OriginError::EmptyLabel);
    }
    Ok(())
}

fn check_port(port: &str, default_port: u16) -> Result<(), OriginError> {
    if port.is_empty()
        || port.len() > 5
        || port.starts_with('0')
        || !port.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(OriginError::Port);
    }
    match port.parse::<u16>() {
        Ok(port) if port == default_port => Err(OriginError::DefaultPort(port)),
        Ok(_) => Ok(()),
        Err(_) => Err(OriginError::Port),
    }
}

/// Whether `text` is exactly such an origin: the same rule as [`check`],
/// without the reason, written for the shell's WebAssembly module (plain
/// byte tests: no string searcher, no Unicode table, nothing that could
/// panic). `tests::is_origin_is_check` and the `shell_query` fuzz target
/// hold the two to one answer; `startShell` also asks the browser.
pub fn is_origin(text: &str) -> bool {
    if text.len() > MAX_ORIGIN {
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
                let ipv6 = literal.contains(':')
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
                    b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'-')
                })
                && !host.split('.').any(str::is_empty);
            if !reg_name {
                return false;
            }
            after
        }
    };
    match port.strip_prefix(':') {
        None => port.is_empty(),
        Some(digits) => {
            !digits.is_empty()
                && digits.len() <= 5
                && !digits.starts_with('0')
                && digits.bytes().all(|b| b.is_ascii_digit())
                && digits != default_port
                && digits.parse::<u32>().is_ok_and(|port| port <= 65535)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::OriginError::*;
    use super::*;

    fn browser_serialised_cases() -> Vec<&'static str> {
        vec![
            "https://app.example.com",
            "http://localhost",
            "http://localhost:8080",
            "http://127.0.0.1:5173",
            "https://a",
            "https://xn--mnchen-3ya.de",
            "https://my-app.example-1.co.uk:8443",
            "https://app.example.com:80",
            "http://app.example.com:443",
            "http://example.com:1",
            "http://example.com:65535",
            "http://[::1]",
            "http://[::1]:8080",
            "https://[2001:db8::8a2e:370:7334]",
            "http://[::ffff:192.0.2.128]:3000",
        ]
    }

    #[test]
    fn browser_serialised_origins_are_accepted() {
        for good in browser_serialised_cases() {
            assert_eq!(check(good), Ok(()), "{good}");
        }
        let longest = format!("https://{}", "a".repeat(MAX_ORIGIN - "https://".len()));
        assert_eq!(check(&longest), Ok(()));
    }

    fn refused_cases() -> Vec<(&'static str, OriginError)> {
        vec![
            ("", Empty),
            ("null", Null),
            ("NULL", Null),
            (" https://app.example.com", Space),
            ("https://app.example.com ", Space),
            ("https://app example.com", Space),
            ("https://app.example.com\n", Space),
            ("https://app.example.com\t", Space),
            ("https://app.example.com\u{0}", Space),
            ("https://app.example.com\u{a0}", Space),
            ("app.example.com", Scheme),
            ("//app.example.com", Scheme),
            ("javascript:alert(1)", Scheme),
            ("javascript://%0aalert(1)", Scheme),
            ("data:text/html,<script>alert(1)</script>", Scheme),
            ("file://", Scheme),
            ("file:///etc/passwd", Scheme),
            ("ftp://example.com", Scheme),
            ("ws://example.com", Scheme),
            ("https:app.example.com", Scheme),
            ("https:/app.example.com", Scheme),
            ("HTTPS://app.example.com", SchemeCase),
            ("Http://app.example.com", SchemeCase),
            ("https://user@app.example.com", Userinfo),
            ("https://user:pass@app.example.com", Userinfo),
            ("https://app.example.com@evil.example", Userinfo),
            ("https://app.example.com/", Path),
            ("https://app.example.com/page", Path),
            ("https://app.example.com:8080/", Path),
            ("https://app.example.com?x=1", Path),
            ("https://app.example.com#top", Path),
            ("https://app.example.com\\", Path),
            ("https:///app.example.com", Path),
            ("https://", NoHost),
            ("https://:8080", NoHost),
            ("https://App.Example.com", HostCase),
            ("https://APP.EXAMPLE.COM", HostCase),
            ("https://app_1.example.com", HostChar),
            ("https://app.example.com\"", HostChar),
            ("https://app.example.com'", HostChar),
            ("https://a\"><script>alert(1)<", HostChar),
            ("https://a\"><script>alert(1)</script>", Path),
            ("https://app<b>.example.com", HostChar),
            ("https://münchen.de", HostChar),
            ("https://app%2eexample.com", HostChar),
            ("https://app.example.com;x", HostChar),
            ("https://.example.com", EmptyLabel),
            ("https://example.com.", EmptyLabel),
            ("https://app..example.com", EmptyLabel),
            ("https://.", EmptyLabel),
            ("http://[::1", Ipv6),
            ("http://[]", Ipv6),
            ("http://[1.2.3.4]", Ipv6),
            ("http://[::G]", Ipv6),
            ("http://[2001:DB8::1]", Ipv6),
            ("http://[::1]x", Ipv6),
            ("http://[::1]]", Ipv6),
            ("https://app.example.com:", Port),
            ("https://app.example.com:0", Port),
            ("https://app.example.com:08080", Port),
            ("https://app.example.com:65536", Port),
            ("https://app.example.com:100000", Port),
            ("https://app.example.com:-1", Port),
            ("https://app.example.com:+80", Port),
            ("https://app.example.com:http", Port),
            ("https://app.example.com:80:80", Port),
            ("http://[::1]:", Port),
            ("https://app.example.com:443", DefaultPort(443)),
            ("http://app.example.com:80", DefaultPort(80)),
            ("http://[::1]:80", DefaultPort(80)),
        ]
    }

    #[test]
    fn everything_else_is_refused_with_its_reason() {
        let too_long = format!("https://{}", "a".repeat(MAX_ORIGIN));
        assert_eq!(check(&too_long), Err(TooLong));
        for (bad, reason) in refused_cases() {
            assert_eq!(check(bad), Err(reason), "{bad:?}");
        }
    }

    #[test]
    fn reasons_say_what_to_send_instead() {
        assert!(DefaultPort(443).to_string().contains("drop :443"));
        assert!(Path.to_string().contains("trailing slash"));
        assert!(HostCase.to_string().contains("lowercase"));
        assert!(Null.to_string().contains("http or https"));
    }

    #[test]
    fn is_origin_is_check() {
        let too_long = format!("https://{}", "a".repeat(MAX_ORIGIN));
        let longest = format!("https://{}", "a".repeat(MAX_ORIGIN - "https://".len()));
        let mut texts: Vec<&str> = vec![
            &too_long,
            &longest,
            "https://host_1.example",
            "http://localhost:0",
            "https://ｅvil.com",
            "*",
            "https://[::1]:8443",
            "http://[::]",
            "http://[:]",
            "https://a.b.c:1",
            "https://a:",
            "http://[::1]:0",
            "https://xn--mnchen-3ya.de:65535",
            "https://1.2.3.4:99999",
        ];
        let good = browser_serialised_cases();
        let bad = refused_cases();
        texts.extend(good.iter().copied());
        texts.extend(bad.iter().map(|(text, _)| *text));
        for text in texts {
            assert_eq!(is_origin(text), check(text).is_ok(), "{text:?}");
        }
    }
}
