//! The host's settings: flags, each with an environment variable.

use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::origin;

/// 4 MiB: room for a card of about 150,000 points. Reading and drawing
/// take about 20 times the post in memory (the JSON tree above all), so a
/// larger default would put one post's draw near the 256 MB the host is
/// meant to stay under.
pub const DEFAULT_BODY_LIMIT: usize = 4 * 1024 * 1024;

/// 128 MiB: one post at the body limit at a time (24 times 4 MiB and
/// 32 MiB for the drawing), or up to four smaller ones; small posts have a
/// lane of their own.
pub const DEFAULT_DRAW_MEMORY: usize = 128 * 1024 * 1024;

/// 32 MiB: eight posts at the default body limit being read or waiting.
pub const DEFAULT_BODY_MEMORY: usize = 32 * 1024 * 1024;

/// The per-key rate limit's defaults: generous, so that only a runaway
/// client meets them (a page of twenty cards, each with its image, makes
/// about forty calls at once).
pub const DEFAULT_API_RATE: f64 = 50.0;
pub const DEFAULT_API_BURST: u32 = 500;

/// Where the package this host serves (--package) puts the engine module.
pub const DEFAULT_ENGINE_URL: &str = "/node_modules/zdr-embed/pkg/engine/zdr_engine.js";

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
    /// The demo pages to serve at / (skipped when the folder is missing).
    #[arg(long, env = "ZDR_WWW", default_value = "www")]
    pub www: PathBuf,
    /// The npm package folder (its package.json and pkg/), served at
    /// /node_modules/zdr-embed/ as an application would install it.
    #[arg(long, env = "ZDR_PACKAGE", default_value = ".")]
    pub package: PathBuf,
    /// The engine module the postMessage shell imports (the ES glue of
    /// zdr-embed's pkg/engine/zdr_engine.js): a path on this host, since
    /// the shell's policy lets it load scripts from its own origin only.
    #[arg(long, env = "ZDR_ENGINE_URL", default_value = DEFAULT_ENGINE_URL,
          value_parser = parse_engine_url)]
    pub engine_url: String,
    /// Charts drawn at the same time (default: the number of cores).
    #[arg(long, env = "ZDR_MAX_CONCURRENT_DRAWS", default_value_t = cores(),
          value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub max_concurrent_draws: u32,
    /// Posts that may wait for a drawing slot; beyond them a post gets 503
    /// with Retry-After at once.
    #[arg(long, env = "ZDR_DRAW_QUEUE", default_value_t = 8)]
    pub draw_queue: u32,
    /// Memory, in bytes, that the draws of posts larger than --small-post
    /// may take together (each is reckoned at 32 MiB and 24 times its
    /// post); a post waits until its share is free.
    #[arg(long, env = "ZDR_DRAW_MEMORY", default_value_t = DEFAULT_DRAW_MEMORY)]
    pub draw_memory: usize,
    /// Memory, in bytes, that the bodies of posts may hold together while
    /// they are read and wait to be drawn, beyond the first --small-post
    /// bytes of each (those are bounded by --max-connections); a post that
    /// would pass it gets 503 with Retry-After.
    #[arg(long, env = "ZDR_BODY_MEMORY", default_value_t = DEFAULT_BODY_MEMORY)]
    pub body_memory: usize,
    /// Posts up to this many bytes are drawn in a lane of their own, so
    /// that large posts cannot hold them back.
    #[arg(long, env = "ZDR_SMALL_POST", default_value_t = 64 * 1024)]
    pub small_post: usize,
    /// The longest a post may wait for its slot and be drawn, e.g. "10s"
    /// or "500ms"; then it gets 503 and its drawing stops. The service
    /// API's heavy work (reading a file, making cards, searching, drawing
    /// an image) is held to it too.
    #[arg(long, env = "ZDR_DRAW_TIMEOUT", default_value = "10s", value_parser = parse_duration)]
    pub draw_timeout: Duration,
    /// The time a client has to send a request's headers.
    #[arg(long, env = "ZDR_HEADER_TIMEOUT", default_value = "10s", value_parser = parse_duration)]
    pub header_timeout: Duration,
    /// The time a client has to send a whole request body.
    #[arg(long, env = "ZDR_BODY_TIMEOUT", default_value = "30s", value_parser = parse_duration)]
    pub body_timeout: Duration,
    /// A connection on which nothing arrives for this long is closed (idle
    /// keep-alive, or a stalled upload). Keep it above --draw-timeout.
    #[arg(long, env = "ZDR_IDLE_TIMEOUT", default_value = "60s", value_parser = parse_duration)]
    pub idle_timeout: Duration,
    /// A client that takes longer than this to accept any of a response
    /// (a reader that does not read) is dropped.
    #[arg(long, env = "ZDR_WRITE_TIMEOUT", default_value = "30s", value_parser = parse_duration)]
    pub write_timeout: Duration,
    /// Open connections at most; more wait in the listen backlog.
    #[arg(long, env = "ZDR_MAX_CONNECTIONS", default_value_t = 512,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: u32,
    /// A key of the service API (/api/...): each key is a tenant that sees
    /// only its own files and cards. Repeat the flag for more keys; the
    /// environment variable takes them separated by commas.
    #[arg(
        long = "api-key",
        env = "ZDR_API_KEYS",
        value_delimiter = ',',
        hide_env_values = true
    )]
    pub api_keys: Vec<String>,
    /// A file of API keys, one per line; blank lines and lines starting
    /// with # are skipped.
    #[arg(long, env = "ZDR_API_KEYS_FILE")]
    pub api_keys_file: Option<PathBuf>,
    /// Where the service API keeps its database (zdr.sqlite3), the files
    /// uploaded to it and its signing secret. Created when the API is first
    /// used; the embed endpoint never writes here.
    #[arg(long, env = "ZDR_DATA_DIR", default_value = "zdr-data")]
    pub data_dir: PathBuf,
    /// Where the service API keeps its rows: sqlite://<file> (unset: the
    /// file zdr.sqlite3 in --data-dir) or postgres://user:password@host:port/database,
    /// which any number of hosts can share. The schema is migrated at start.
    #[arg(long, env = "ZDR_DATABASE_URL", hide_env_values = true)]
    pub database_url: Option<String>,
    /// Connections to PostgreSQL this host opens at most.
    #[arg(long, env = "ZDR_DATABASE_POOL", default_value_t = 16)]
    pub database_pool: usize,
    /// Where the service API keeps its files: a folder (unset: --data-dir)
    /// or s3://bucket/prefix, an S3-compatible bucket any number of hosts
    /// can share, reached with AWS_ENDPOINT_URL, AWS_REGION,
    /// AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY. Upload forms are then
    /// posted straight to the bucket.
    #[arg(long, env = "ZDR_OBJECT_STORE")]
    pub object_store: Option<String>,
    /// The address clients reach this host at (e.g. https://charts.example.com),
    /// for the URLs the API hands out (uploads, card pages). Unset: the
    /// scheme http and the Host header of each request.
    #[arg(long, env = "ZDR_PUBLIC_URL", value_parser = parse_public_url)]
    pub public_url: Option<String>,
    /// Requests a second each API key may make, on average (a token bucket
    /// per key); past it the answer is 429 with Retry-After. 0 turns the
    /// limit off.
    #[arg(long, env = "ZDR_API_RATE", default_value_t = DEFAULT_API_RATE)]
    pub api_rate: f64,
    /// Requests an API key may make at once before --api-rate applies (the
    /// bucket's size).
    #[arg(long, env = "ZDR_API_BURST", default_value_t = DEFAULT_API_BURST)]
    pub api_burst: u32,
    /// Let the file connector fetch from loopback, private and link-local
    /// addresses (for tests and a trusted network only: a caller could
    /// otherwise reach services behind this host).
    #[arg(long, env = "ZDR_ALLOW_PRIVATE_FETCH")]
    pub allow_private_fetch: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bind: IpAddr::from([127, 0, 0, 1]),
            port: 8080,
            body_limit: DEFAULT_BODY_LIMIT,
            frame_ancestors: "*".into(),
            parent_origins: None,
            www: PathBuf::from("www"),
            package: PathBuf::from("."),
            engine_url: DEFAULT_ENGINE_URL.into(),
            max_concurrent_draws: cores(),
            draw_queue: 8,
            draw_memory: DEFAULT_DRAW_MEMORY,
            body_memory: DEFAULT_BODY_MEMORY,
            small_post: 64 * 1024,
            draw_timeout: Duration::from_secs(10),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
            write_timeout: Duration::from_secs(30),
            api_keys: Vec::new(),
            api_keys_file: None,
            data_dir: PathBuf::from("zdr-data"),
            database_url: None,
            database_pool: 16,
            object_store: None,
            public_url: None,
            allow_private_fetch: false,
            max_connections: 512,
            api_rate: DEFAULT_API_RATE,
            api_burst: DEFAULT_API_BURST,
        }
    }
}

/// Drawing is CPU work: more draws at once than cores only slows each.
fn cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| u32::try_from(n.get()).unwrap_or(u32::MAX))
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

/// "10s", "500ms", "2m", or a bare number of seconds.
/// An http(s) origin, kept without a trailing slash.
fn parse_public_url(value: &str) -> Result<String, String> {
    let trimmed = value.trim().trim_end_matches('/');
    let rest = trimmed
        .strip_prefix("https://")
        .or_else(|| trimmed.strip_prefix("http://"))
        .ok_or("must start with http:// or https://")?;
    if rest.is_empty() || rest.contains(['/', '?', '#', '@', ' ']) {
        return Err(
            "must be a scheme and host (and port) only, e.g. https://charts.example.com".into(),
        );
    }
    Ok(trimmed.to_owned())
}

fn parse_duration(value: &str) -> Result<Duration, String> {
    let value = value.trim();
    let split = value
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(value.len());
    let (number, unit) = value.split_at(split);
    let number: u64 = number
        .parse()
        .map_err(|_| format!("{value:?} is not a duration like 10s or 500ms"))?;
    let duration = match unit {
        "" | "s" => Duration::from_secs(number),
        "ms" => Duration::from_millis(number),
        "m" => Duration::from_secs(number.saturating_mul(60)),
        _ => return Err(format!("{value:?}: the unit must be ms, s or m")),
    };
    if duration.is_zero() {
        return Err("a timeout of zero would refuse everything; give a positive one".into());
    }
    Ok(duration)
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
    fn durations_have_units() {
        assert_eq!(parse_duration("10s"), Ok(Duration::from_secs(10)));
        assert_eq!(parse_duration("7"), Ok(Duration::from_secs(7)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        for bad in ["", "0s", "s", "1h", "-1s", "1.5s"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
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
