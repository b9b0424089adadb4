//! Whether the operator's `--frame-ancestors` sources let a given origin
//! frame the postMessage shell. The shell then names that one origin as its
//! only frame ancestor: it talks to exactly one parent, so no other page may
//! frame it.

/// An origin already checked by [`crate::origin::check`]: lowercase
/// `scheme://host[:port]`.
struct Origin<'a> {
    scheme: &'a str,
    host: &'a str,
    port: u16,
}

fn default_port(scheme: &str) -> u16 {
    if scheme == "https" {
        443
    } else {
        80
    }
}

fn split(origin: &str) -> Option<Origin<'_>> {
    let (scheme, rest) = origin.split_once("://")?;
    let (host, port) = match rest.rfind(':') {
        // A colon inside an IPv6 literal is not a port separator.
        Some(i) if !rest[i..].contains(']') => (&rest[..i], rest[i + 1..].parse().ok()?),
        _ => (rest, default_port(scheme)),
    };
    Some(Origin { scheme, host, port })
}

/// The CSP frame-ancestors matching of one source expression (CSP 3,
/// "does url match expression"), for an http(s) origin. `self_authority`
/// is this host as the request addressed it (its Host header).
fn matches(source: &str, origin: &Origin<'_>, self_authority: Option<&str>) -> bool {
    let source = source.to_ascii_lowercase();
    match source.as_str() {
        "*" => return true,
        "'none'" => return false,
        "'self'" => {
            let port = if origin.port == default_port(origin.scheme) {
                String::new()
            } else {
                format!(":{}", origin.port)
            };
            return self_authority
                .is_some_and(|own| own.eq_ignore_ascii_case(&format!("{}{port}", origin.host)));
        }
        _ => {}
    }
    if let Some(scheme) = source.strip_suffix(':') {
        // A scheme source; http: also allows its secure upgrade.
        return scheme == origin.scheme || (scheme == "http" && origin.scheme == "https");
    }
    let (scheme, rest) = match source.split_once("://") {
        Some((scheme, rest)) => (Some(scheme), rest),
        None => (None, source.as_str()),
    };
    if let Some(scheme) = scheme {
        if !(scheme == origin.scheme || (scheme == "http" && origin.scheme == "https")) {
            return false;
        }
    }
    let rest = rest.split('/').next().unwrap_or("");
    let (host, port) = match rest.rsplit_once(':') {
        Some((host, port)) if !port.contains(']') => (host, Some(port)),
        _ => (rest, None),
    };
    let host_ok = match host.strip_prefix("*.") {
        Some(suffix) => origin
            .host
            .strip_suffix(suffix)
            .is_some_and(|head| head.len() > 1 && head.ends_with('.')),
        None => host == origin.host,
    };
    let port_ok = match port {
        Some("*") => true,
        Some(port) => port.parse::<u16>().is_ok_and(|p| p == origin.port),
        None => {
            let wanted = default_port(scheme.unwrap_or(origin.scheme));
            origin.port == wanted || (wanted == 80 && origin.port == 443)
        }
    };
    host_ok && port_ok
}

/// Whether `sources` (a frame-ancestors source list) allow `parent_origin`.
pub fn allow(sources: &str, parent_origin: &str, self_authority: Option<&str>) -> bool {
    let Some(origin) = split(parent_origin) else {
        return false;
    };
    sources
        .split_whitespace()
        .any(|source| matches(source, &origin, self_authority))
}

#[cfg(test)]
mod tests {
    use super::allow;

    #[test]
    fn sources_are_matched_as_browsers_do() {
        let yes = [
            ("*", "https://a.example"),
            ("https://a.example", "https://a.example"),
            ("https://a.example:443", "https://a.example"),
            ("http://a.example", "https://a.example"),
            ("a.example", "http://a.example"),
            ("https:", "https://b.example:8443"),
            ("https://*.example.com", "https://app.example.com"),
            ("http://localhost:*", "http://localhost:5173"),
            ("'none' http://[::1]:8080", "http://[::1]:8080"),
            ("'self'", "http://127.0.0.1:8080"),
        ];
        for (sources, origin) in yes {
            assert!(
                allow(sources, origin, Some("127.0.0.1:8080")),
                "{sources} {origin}"
            );
        }
        let no = [
            ("'none'", "https://a.example"),
            ("https://a.example", "https://b.example"),
            ("https://a.example", "http://a.example"),
            ("https://a.example", "https://a.example:8443"),
            ("https://*.example.com", "https://example.com"),
            ("https://*.example.com", "https://evilexample.com"),
            ("http:", "ftp://a.example"),
            ("'self'", "http://127.0.0.1:8081"),
            ("https://a.example.evil", "https://a.example"),
        ];
        for (sources, origin) in no {
            assert!(
                !allow(sources, origin, Some("127.0.0.1:8080")),
                "{sources} {origin}"
            );
        }
    }
}
