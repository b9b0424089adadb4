//! The embed address: `serviceUrl` (trailing slashes trimmed) + `/embed/<cardId>/`.
//!
//! [`ServiceUrl::parse`] is pure string work, so it is tested (and fuzzed)
//! natively. Its rules are stricter than a browser's URL parser on purpose:
//! anything that could make the widget post somewhere other than
//! `{service}/embed/{card}/`, or that the browser would read as another host
//! (percent-escapes, non-ASCII, invisible characters), is refused. In the
//! browser the text is then also read by the browser's own `URL`
//! (`crate::browser_url`), which has the last word.

use std::fmt;

use zdr_protocol::text::{concat, decimal, quote};

/// Longest `serviceUrl` accepted; real service addresses are far shorter.
pub const MAX_SERVICE_URL_LEN: usize = 2048;
/// Longest `cardId` accepted, in characters before encoding.
pub const MAX_CARD_ID_LEN: usize = 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddressProblem {
    NotHttp(String),
    Whitespace,
    Backslash,
    NoHost,
    HostCharacters,
    Credentials,
    BadPort,
    QueryOrFragment,
    TooLong(usize),
    EmptyCardId,
    DotSegment,
    /// The browser's `URL` cannot read it.
    Unparsable,
    /// The browser reads the host as written in `.0` as the host in `.1`.
    Rewritten(String, String),
}

impl AddressProblem {
    /// What is wrong, after the option's name (built without `core::fmt`,
    /// see [`zdr_protocol::text::concat`]).
    pub fn words(&self) -> String {
        match self {
            AddressProblem::NotHttp(found) => concat(&[
                "must be an absolute http: or https: URL such as \"https://charts.example.com\", found ",
                found,
            ]),
            AddressProblem::Whitespace => "must not contain spaces or control characters".into(),
            AddressProblem::Backslash => "must not contain backslashes".into(),
            AddressProblem::NoHost => "must name a host after \"//\"".into(),
            AddressProblem::HostCharacters => "must write its host in ASCII letters, digits, \".\", \"-\" and \"_\" (or an IPv6 address in brackets, such as [::1]): the browser rewrites percent-escapes, non-ASCII and invisible characters into another host; write an international name in punycode (xn--…)".into(),
            AddressProblem::Credentials => {
                "must not contain a user name or password (\"user@\")".into()
            }
            AddressProblem::BadPort => "has a port that is not a number from 0 to 65535".into(),
            AddressProblem::QueryOrFragment => "must not contain a query (\"?\") or fragment (\"#\"): the widget appends /embed/<cardId>/ to it".into(),
            AddressProblem::TooLong(limit) => {
                let limit = u32::try_from(*limit).unwrap_or(u32::MAX);
                concat(&["is longer than ", &decimal(limit), " characters"])
            }
            AddressProblem::EmptyCardId => "must not be empty".into(),
            AddressProblem::DotSegment => "must not be \".\" or \"..\"".into(),
            AddressProblem::Unparsable => "is not a URL the browser can read (check the host and the port); use an address such as \"https://charts.example.com\"".into(),
            AddressProblem::Rewritten(written, browser) => concat(&[
                "names the host ",
                &quote(written),
                ", which the browser reads as ",
                &quote(browser),
                "; write the host the way the browser does",
            ]),
        }
    }
}

impl fmt::Display for AddressProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words())
    }
}

/// A service base address that passed validation, without trailing slashes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceUrl {
    base: String,
    /// The host as written (IPv6 literals with their brackets), ASCII
    /// lower-cased: what the browser's `URL.hostname` must equal.
    host: String,
}

impl ServiceUrl {
    pub fn parse(input: &str) -> Result<Self, AddressProblem> {
        if char_count(input) > MAX_SERVICE_URL_LEN {
            return Err(AddressProblem::TooLong(MAX_SERVICE_URL_LEN));
        }
        let (scheme, rest) = split_at_byte(input, b':').unwrap_or(("", ""));
        let is_http = scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https");
        if !is_http {
            return Err(AddressProblem::NotHttp(crate::js_value::quote(input)));
        }
        // Browsers strip or reinterpret these; a silent rewrite is not what the caller meant.
        if input.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(AddressProblem::Whitespace);
        }
        if has_byte(input, b'\\') {
            return Err(AddressProblem::Backslash);
        }
        let Some(after_slashes) = rest.strip_prefix("//") else {
            return Err(AddressProblem::NotHttp(crate::js_value::quote(input)));
        };
        if has_byte(after_slashes, b'?') || has_byte(after_slashes, b'#') {
            return Err(AddressProblem::QueryOrFragment);
        }
        let authority = split_at_byte(after_slashes, b'/').map_or(after_slashes, |(a, _)| a);
        let host = check_authority(authority)?;
        Ok(ServiceUrl {
            base: without_trailing_slashes(input).to_owned(),
            host: host.to_ascii_lowercase(),
        })
    }

    pub fn as_str(&self) -> &str {
        &self.base
    }

    pub fn host(&self) -> &str {
        &self.host
    }

    /// The same service, its base address as the browser serialises it.
    pub fn rebased(self, base: &str) -> ServiceUrl {
        ServiceUrl {
            base: without_trailing_slashes(base).to_owned(),
            host: self.host,
        }
    }
}

/// Checks `host[:port]`; returns the host.
fn check_authority(authority: &str) -> Result<&str, AddressProblem> {
    if has_byte(authority, b'@') {
        return Err(AddressProblem::Credentials);
    }
    let (host, after) = split_host_port(authority);
    if host.is_empty() || host == "[]" {
        return Err(AddressProblem::NoHost);
    }
    if !is_plain_host(host) {
        return Err(AddressProblem::HostCharacters);
    }
    let port = match after {
        "" => None,
        _ => Some(
            after
                .strip_prefix(':')
                .ok_or(AddressProblem::HostCharacters)?,
        ),
    };
    match port {
        // "host:" is valid: the browser reads it as no port.
        None | Some("") => Ok(host),
        Some(digits) => {
            let valid = digits.len() <= 5
                && digits.bytes().all(|b| b.is_ascii_digit())
                && digits.parse::<u32>().is_ok_and(|port| port <= 65535);
            if valid {
                Ok(host)
            } else {
                Err(AddressProblem::BadPort)
            }
        }
    }
}

/// A host the browser keeps as it is (but for ASCII case): a name of ASCII
/// letters, digits, `.`, `-` and `_`, or a closed IPv6 literal. The browser
/// may still refuse it (`999.1.1.1`) or write it differently (`127.1`).
fn is_plain_host(host: &str) -> bool {
    match host.strip_prefix('[') {
        Some(literal) => literal.strip_suffix(']').is_some_and(|inner| {
            inner
                .bytes()
                .all(|b| b.is_ascii_hexdigit() || matches!(b, b':' | b'.'))
        }),
        None => host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_')),
    }
}

/// Splits `host[:port]` into the host and what follows it (`""` or
/// `":port"`, or garbage after an IPv6 literal), keeping `[::1]` whole.
fn split_host_port(authority: &str) -> (&str, &str) {
    let host_end = if authority.starts_with('[') {
        byte_index(authority, b']').map_or(authority.len(), |i| i + 1)
    } else {
        byte_index(authority, b':').unwrap_or(authority.len())
    };
    // At a char boundary by construction; checked, so no panic path is linked.
    authority
        .split_at_checked(host_end)
        .unwrap_or((authority, ""))
}

/// A card id, percent-encoded as exactly one path segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardSegment {
    encoded: String,
}

impl CardSegment {
    pub fn parse(card_id: &str) -> Result<Self, AddressProblem> {
        if card_id.is_empty() {
            return Err(AddressProblem::EmptyCardId);
        }
        if card_id == "." || card_id == ".." {
            return Err(AddressProblem::DotSegment);
        }
        if char_count(card_id) > MAX_CARD_ID_LEN {
            return Err(AddressProblem::TooLong(MAX_CARD_ID_LEN));
        }
        Ok(CardSegment {
            encoded: encode_segment(card_id),
        })
    }

    pub fn as_str(&self) -> &str {
        &self.encoded
    }
}

// ASCII delimiters are found byte by byte: in UTF-8 no byte of another
// character equals an ASCII one, so these give `find`, `contains`,
// `split_once` and `trim_end_matches` of the same ASCII character, and
// keep core's string searcher (and its `memchr`) out of the module.

/// Where `byte` (ASCII) first is in `text`.
fn byte_index(text: &str, byte: u8) -> Option<usize> {
    text.bytes().position(|b| b == byte)
}

pub(crate) fn has_byte(text: &str, byte: u8) -> bool {
    byte_index(text, byte).is_some()
}

/// `text` before and after the first `byte` (ASCII), if it has one.
fn split_at_byte(text: &str, byte: u8) -> Option<(&str, &str)> {
    let at = byte_index(text, byte)?;
    Some((text.get(..at)?, text.get(at + 1..)?))
}

/// `text` without the slashes it ends with.
fn without_trailing_slashes(text: &str) -> &str {
    let mut text = text;
    while let Some(shorter) = text.strip_suffix('/') {
        text = shorter;
    }
    text
}

/// Characters in `text`: its bytes that start one. A plain loop, where
/// `chars().count()` links core's 800-byte vectorised counter into the
/// service module.
fn char_count(text: &str) -> usize {
    text.bytes().filter(|byte| byte & 0xc0 != 0x80).count()
}

/// Percent-encodes every byte but RFC 3986 unreserved characters, so `/`, `?`,
/// `#` and `%` in an id can never leave its segment.
fn encode_segment(raw: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(raw.len());
    for byte in raw.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0x0f)]));
        }
    }
    out
}

/// `{service}/embed/{card}/`, the form's action.
pub fn embed_address(service: &ServiceUrl, card: &CardSegment) -> String {
    concat(&[service.as_str(), "/embed/", card.as_str(), "/"])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(service: &str, card: &str) -> Result<String, AddressProblem> {
        Ok(embed_address(
            &ServiceUrl::parse(service)?,
            &CardSegment::parse(card)?,
        ))
    }

    #[test]
    fn joins_service_and_card() {
        assert_eq!(
            address("https://svc.example", "abc").as_deref(),
            Ok("https://svc.example/embed/abc/")
        );
        assert_eq!(
            address("http://127.0.0.1:8080/", "card_1-x").as_deref(),
            Ok("http://127.0.0.1:8080/embed/card_1-x/")
        );
    }

    #[test]
    fn trims_every_trailing_slash_and_keeps_a_path_prefix() {
        assert_eq!(
            address("https://svc.example/charts///", "c").as_deref(),
            Ok("https://svc.example/charts/embed/c/")
        );
    }

    #[test]
    fn scheme_is_case_insensitive() {
        assert!(ServiceUrl::parse("HTTPS://svc.example").is_ok());
        assert!(ServiceUrl::parse("Http://svc.example").is_ok());
    }

    #[test]
    fn refuses_non_http_schemes() {
        for bad in [
            "javascript:alert(1)",
            "data:text/html,<b>x</b>",
            "file:///etc/passwd",
            "ftp://svc.example",
            "//svc.example",
            "svc.example",
            "",
            "http:svc.example",
            "https:/svc.example",
        ] {
            assert!(
                matches!(ServiceUrl::parse(bad), Err(AddressProblem::NotHttp(_))),
                "{bad} should be refused as not http"
            );
        }
    }

    #[test]
    fn refuses_hostless_credentials_ports_queries_and_whitespace() {
        let cases = [
            ("https://", AddressProblem::NoHost),
            ("https:///path", AddressProblem::NoHost),
            ("https://:8080", AddressProblem::NoHost),
            ("https://user:pw@svc.example", AddressProblem::Credentials),
            ("https://svc.example:99999", AddressProblem::BadPort),
            ("https://svc.example:80a", AddressProblem::BadPort),
            ("https://svc.example/?x=1", AddressProblem::QueryOrFragment),
            ("https://svc.example#top", AddressProblem::QueryOrFragment),
            ("https://svc.example /", AddressProblem::Whitespace),
            ("https://svc.example\n", AddressProblem::Whitespace),
            ("https://svc.example\\evil", AddressProblem::Backslash),
        ];
        for (input, problem) in cases {
            assert_eq!(ServiceUrl::parse(input), Err(problem), "{input:?}");
        }
    }

    #[test]
    fn refuses_hosts_the_browser_would_rewrite_or_refuse() {
        for bad in [
            "https://%65vil.com",
            "https://ev%2Eil.com",
            "https://ev\u{200B}il.com",
            "https://ev\u{00AD}il.com",
            "https://\u{FF45}vil.com",
            "https://bücher.example",
            "https://ev\u{2060}il.com",
            "http://[::1",
            "http://[::1]x:80",
            "http://[::g]",
            "https://a<b",
            "https://a>b",
            "https://a^b",
            "https://a|b",
            "https://a!b",
        ] {
            assert_eq!(
                ServiceUrl::parse(bad),
                Err(AddressProblem::HostCharacters),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn an_empty_port_is_no_port() {
        assert_eq!(
            address("https://svc.example:", "c").as_deref(),
            Ok("https://svc.example:/embed/c/")
        );
        assert_eq!(
            ServiceUrl::parse("https://svc.example:").map(|url| url.host().to_owned()),
            Ok("svc.example".to_owned())
        );
    }

    #[test]
    fn the_host_is_kept_as_written_in_lower_case() {
        let host = |input: &str| ServiceUrl::parse(input).map(|url| url.host().to_owned());
        assert_eq!(
            host("https://SVC.Example:8080/x").as_deref(),
            Ok("svc.example")
        );
        assert_eq!(host("http://[::1]:8080").as_deref(), Ok("[::1]"));
        assert_eq!(host("http://[FE80::1]").as_deref(), Ok("[fe80::1]"));
        assert_eq!(host("https://127.0.0.1").as_deref(), Ok("127.0.0.1"));
    }

    #[test]
    fn accepts_ipv6_literals_and_ports() {
        assert!(ServiceUrl::parse("http://[::1]:8080").is_ok());
        assert!(ServiceUrl::parse("http://[::1]").is_ok());
        assert!(ServiceUrl::parse("http://localhost:0").is_ok());
        assert!(ServiceUrl::parse("http://localhost:65535").is_ok());
    }

    #[test]
    fn refuses_overlong_addresses() {
        let long = format!("https://svc.example/{}", "a".repeat(MAX_SERVICE_URL_LEN));
        assert_eq!(
            ServiceUrl::parse(&long),
            Err(AddressProblem::TooLong(MAX_SERVICE_URL_LEN))
        );
    }

    #[test]
    fn card_id_stays_one_segment() {
        let seg = |id: &str| CardSegment::parse(id).map(|s| s.as_str().to_owned());
        assert_eq!(seg("a/b").as_deref(), Ok("a%2Fb"));
        assert_eq!(seg("../admin").as_deref(), Ok("..%2Fadmin"));
        assert_eq!(seg("x?y#z").as_deref(), Ok("x%3Fy%23z"));
        assert_eq!(seg("100%").as_deref(), Ok("100%25"));
        assert_eq!(seg("%2e%2e").as_deref(), Ok("%252e%252e"));
        assert_eq!(seg("café bar").as_deref(), Ok("caf%C3%A9%20bar"));
        assert_eq!(seg("a-b_c.d~e").as_deref(), Ok("a-b_c.d~e"));
        assert_eq!(seg("..."), Ok("...".to_owned()));
    }

    #[test]
    fn lengths_are_counted_in_characters() {
        for text in ["", "a", "é", "aé€😀", "ab\u{200B}c"] {
            assert_eq!(char_count(text), text.chars().count(), "{text:?}");
        }
        let at_limit = "é".repeat(MAX_CARD_ID_LEN);
        assert!(CardSegment::parse(&at_limit).is_ok());
    }

    #[test]
    fn card_id_refuses_empty_and_dot_segments() {
        assert_eq!(CardSegment::parse(""), Err(AddressProblem::EmptyCardId));
        assert_eq!(CardSegment::parse("."), Err(AddressProblem::DotSegment));
        assert_eq!(CardSegment::parse(".."), Err(AddressProblem::DotSegment));
        let long = "x".repeat(MAX_CARD_ID_LEN + 1);
        assert_eq!(
            CardSegment::parse(&long),
            Err(AddressProblem::TooLong(MAX_CARD_ID_LEN))
        );
    }
}
