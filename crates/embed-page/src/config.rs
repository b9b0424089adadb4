//! The embed's settings: who may frame its pages and where the shell
//! finds the engine. The host puts them beside its own and the API's
//! (`zdr-host --help`); each flag has an environment variable.

use clap::Args;

use crate::origin;

/// Where the package this host serves (--package) puts the engine module.
pub const DEFAULT_ENGINE_URL: &str = "/node_modules/zdr-embed/pkg/engine/zdr_engine.js";

#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Embed")]
pub struct EmbedConfig {
    /// Who may frame the embed pages: the CSP frame-ancestors sources,
    /// e.g. "'self' https://app.example.com". "*" allows any page. The
    /// postMessage shell is framed only by its parent_origin, and only if
    /// these sources allow it.
    #[arg(long, env = "ZDR_FRAME_ANCESTORS", default_value = "*", value_parser = parse_sources)]
    pub frame_ancestors: String,
    /// The only parent origins the postMessage shell serves, separated by
    /// commas or spaces (e.g. "https://app.example.com https://b.example");
    /// others get 403. Unset: any origin the frame-ancestors allow.
    #[arg(long, env = "ZDR_PARENT_ORIGINS", value_parser = parse_origins)]
    pub parent_origins: Option<OriginList>,
    /// The engine module the postMessage shell imports (the ES glue of
    /// zdr-embed's pkg/engine/zdr_engine.js): a path on this host, since
    /// the shell's policy lets it load scripts from its own origin only.
    #[arg(long, env = "ZDR_ENGINE_URL", default_value = DEFAULT_ENGINE_URL,
          value_parser = parse_engine_url)]
    pub engine_url: String,
}

impl Default for EmbedConfig {
    fn default() -> Self {
        EmbedConfig {
            frame_ancestors: "*".into(),
            parent_origins: None,
            engine_url: DEFAULT_ENGINE_URL.into(),
        }
    }
}

/// Browser-serialised origins, checked as `parent_origin` is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OriginList(pub Vec<String>);

impl OriginList {
    pub fn allows(&self, origin: &str) -> bool {
        self.0.iter().any(|allowed| allowed == origin)
    }
}

fn parse_origins(value: &str) -> Result<OriginList, String> {
    let origins: Vec<String> = value
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|part| !part.is_empty())
        .map(str::to_string)
        .collect();
    if origins.is_empty() {
        return Err("give at least one origin, e.g. https://app.example.com".into());
    }
    for origin in &origins {
        origin::check(origin).map_err(|error| format!("{origin}: {error}"))?;
    }
    Ok(OriginList(origins))
}

/// The shell's CSP is `script-src 'self'`: the engine must be a path on
/// this host. A URL with a scheme or a host ("//cdn.example/x.js") would be
/// refused by the browser at run time, with no error the operator sees, so
/// it is refused here, at start-up. The path is written into an attribute
/// (escaped) and handed to `import()`, so only the characters a URL path
/// may hold as they are (RFC 3986 pchar, '/', and %XX) are accepted.
pub fn parse_engine_url(value: &str) -> Result<String, String> {
    const HINT: &str =
        "give a path on this host, e.g. /node_modules/zdr-embed/pkg/engine/zdr_engine.js";
    if !value.starts_with('/') {
        return Err(format!(
            "{value:?} is not a path on this host (the shell may load scripts from its own origin only); {HINT}"
        ));
    }
    if value.starts_with("//") {
        return Err(format!(
            "{value:?} names another host (a URL starting with // keeps only the scheme); {HINT}"
        ));
    }
    let bytes = value.as_bytes();
    for (at, &byte) in bytes.iter().enumerate() {
        let allowed = byte.is_ascii_alphanumeric()
            || b"-._~!$&'()*+,;=:@/".contains(&byte)
            || (byte == b'%'
                && bytes
                    .get(at + 1..at + 3)
                    .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit)));
        if !allowed {
            return Err(format!(
                "{value:?} has {:?} at byte {at}, which a URL path cannot hold as it is (no query, fragment, backslash, space or control character; percent-encode others); {HINT}",
                char::from(byte)
            ));
        }
    }
    Ok(value.to_string())
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
    use super::*;

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

    #[test]
    fn the_engine_url_is_a_path_on_this_host() {
        for good in [
            DEFAULT_ENGINE_URL,
            "/static/engine/zdr_engine.js",
            "/a%20b/zdr_engine.js",
            "/v1.2/@scope/zdr_engine.js",
        ] {
            assert_eq!(parse_engine_url(good).as_deref(), Ok(good));
        }
        for bad in [
            "",
            "zdr_engine.js",
            "./zdr_engine.js",
            "https://cdn.example/zdr_engine.js",
            "//cdn.example/zdr_engine.js",
            "/\\cdn.example/zdr_engine.js",
            "/x.js?v=1",
            "/x.js#a",
            "/a b.js",
            "/x\".js",
            "/x<.js",
            "/x%2.js",
            "/x%zz.js",
            "/x\n.js",
            "/é.js",
        ] {
            let error = parse_engine_url(bad).err();
            assert!(
                error
                    .as_deref()
                    .is_some_and(|e| e.contains("give a path on this host")),
                "{bad:?}: {error:?}"
            );
        }
    }

    #[test]
    fn parent_origins_are_checked_origins() {
        let list = parse_origins("https://a.example, http://localhost:8080  https://b.example");
        assert_eq!(
            list,
            Ok(OriginList(vec![
                "https://a.example".into(),
                "http://localhost:8080".into(),
                "https://b.example".into()
            ]))
        );
        assert!(parse_origins(" , ").is_err());
        assert!(parse_origins("https://a.example/").is_err());
    }
}
