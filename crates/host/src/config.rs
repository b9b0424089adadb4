//! The host's settings: flags, each with an environment variable.

use std::net::IpAddr;
use std::path::PathBuf;

use clap::Args;

/// 10 MiB: room for a card of several hundred thousand points.
pub const DEFAULT_BODY_LIMIT: usize = 10 * 1024 * 1024;

#[derive(Debug, Clone, Args)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "ZDR_BIND", default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Port to listen on (0 picks a free one; the address is printed).
    #[arg(long, env = "ZDR_PORT", default_value_t = 8080)]
    pub port: u16,
    /// Largest request body in bytes; larger posts get 413.
    #[arg(long, env = "ZDR_BODY_LIMIT", default_value_t = DEFAULT_BODY_LIMIT)]
    pub body_limit: usize,
    /// Who may frame the embed pages: the CSP frame-ancestors sources,
    /// e.g. "'self' https://app.example.com". "*" allows any page.
    #[arg(long, env = "ZDR_FRAME_ANCESTORS", default_value = "*", value_parser = parse_sources)]
    pub frame_ancestors: String,
    /// The demo pages to serve at / (skipped when the folder is missing).
    #[arg(long, env = "ZDR_WWW", default_value = "www")]
    pub www: PathBuf,
    /// The npm package folder (its package.json and pkg/), served at
    /// /node_modules/zdr-embed/ as an application would install it.
    #[arg(long, env = "ZDR_PACKAGE", default_value = ".")]
    pub package: PathBuf,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bind: IpAddr::from([127, 0, 0, 1]),
            port: 8080,
            body_limit: DEFAULT_BODY_LIMIT,
            frame_ancestors: "*".into(),
            www: PathBuf::from("www"),
            package: PathBuf::from("."),
        }
    }
}

/// CSP source lists are spliced into a header: refuse anything that could
/// end the directive or the header.
fn parse_sources(value: &str) -> Result<String, String> {
    let value = value.trim();
    if value.is_empty() {
        return Err("give at least one source, e.g. \"'self'\" or \"*\"".into());
    }
    if value
        .chars()
        .any(|c| matches!(c, ';' | ',' | '\r' | '\n') || c.is_control())
    {
        return Err(
            "sources are separated by spaces; ';', ',' and control characters are not allowed"
                .into(),
        );
    }
    Ok(value.to_string())
}

#[cfg(test)]
mod tests {
    use super::parse_sources;

    #[test]
    fn frame_ancestors_cannot_inject_directives() {
        assert_eq!(
            parse_sources(" 'self' https://a.example ").as_deref(),
            Ok("'self' https://a.example")
        );
        assert!(parse_sources("*; script-src *").is_err());
        assert!(parse_sources("a\r\nX-Evil: 1").is_err());
        assert!(parse_sources("").is_err());
    }
}
