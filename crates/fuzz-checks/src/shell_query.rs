//! `shell_query`: the address checks on both sides of the postMessage
//! shell, on any text: zdr-host's `parent_origin`, shell query and
//! `dark_mode` parsing, and the widget's `parentOrigin` check and
//! `serviceUrl` string rules. None may panic; what they accept must have
//! the shape they promise.

use zdr_embed::address::ServiceUrl;

/// One input: any text (not UTF-8 is skipped).
pub fn check(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let _ = zdr_host::parse::parent_origin(text);
    let _ = zdr_host::parse::shell_query(text);
    let _ = zdr_host::parse::dark_mode(text);

    // The shell's lean check and the host's, with reasons, are one rule.
    assert_eq!(
        zdr_protocol::origin::is_origin(text),
        zdr_protocol::origin::check(text).is_ok(),
        "the shell and the host disagree on {text:?}"
    );
    if zdr_protocol::origin::is_origin(text) {
        let rest = text
            .strip_prefix("https://")
            .or_else(|| text.strip_prefix("http://"));
        assert!(
            rest.is_some_and(|host| !host.is_empty() && !host.contains(['/', '?', '#', '@'])),
            "accepted origin {text:?} is not scheme://host[:port]"
        );
    }

    if let Ok(url) = ServiceUrl::parse(text) {
        let base = url.as_str();
        assert!(
            !base.contains(['?', '#', '\\']) && !base.chars().any(char::is_whitespace),
            "accepted serviceUrl {base:?} has a query, fragment, backslash or spaces"
        );
        // "@" may appear in the path, never before it (credentials).
        let authority = base
            .split_once("//")
            .map_or("", |(_, rest)| rest.split('/').next().unwrap_or(""));
        assert!(
            !authority.is_empty() && !authority.contains('@'),
            "accepted serviceUrl {base:?} has no host or has credentials"
        );
        // The base, once accepted, is accepted again unchanged.
        assert_eq!(
            ServiceUrl::parse(base).as_ref().map(ServiceUrl::as_str),
            Ok(base),
            "serviceUrl check is not stable on its own output"
        );
    }
}
