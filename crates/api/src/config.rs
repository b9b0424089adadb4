//! The service API's settings: its keys, where it keeps its rows and files,
//! the address it hands out, its rate per key. The host puts them beside
//! its own and the embed's (`zdr-host --help`).

use std::path::PathBuf;

use clap::Args;

/// The per-key rate limit's defaults: generous, so that only a runaway
/// client meets them (a page of twenty cards, each with its image, makes
/// about forty calls at once).
pub const DEFAULT_API_RATE: f64 = 50.0;
pub const DEFAULT_API_BURST: u32 = 500;
/// Previews a key may have kept at once (about 100 KB each).
pub const DEFAULT_MAX_PREVIEWS: u32 = 1000;

#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Service API")]
pub struct ApiConfig {
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
    /// can share, reached with AWS_ENDPOINT_URL, AWS_REGION and the
    /// credentials AWS's tools find (keys in the environment, a profile,
    /// web identity, container or instance role). Upload forms are then
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
    /// Previews (image_ttl_minutes) an API key may have kept at once; a
    /// request that would keep more is refused with 409 until some expire.
    #[arg(long, env = "ZDR_MAX_PREVIEWS", default_value_t = DEFAULT_MAX_PREVIEWS)]
    pub max_previews: u32,
    /// Let the file connector fetch from loopback, private and link-local
    /// addresses (for tests and a trusted network only: a caller could
    /// otherwise reach services behind this host).
    #[arg(long, env = "ZDR_ALLOW_PRIVATE_FETCH")]
    pub allow_private_fetch: bool,
}

impl Default for ApiConfig {
    fn default() -> Self {
        ApiConfig {
            api_keys: Vec::new(),
            api_keys_file: None,
            data_dir: PathBuf::from("zdr-data"),
            database_url: None,
            database_pool: 16,
            object_store: None,
            public_url: None,
            api_rate: DEFAULT_API_RATE,
            api_burst: DEFAULT_API_BURST,
            max_previews: DEFAULT_MAX_PREVIEWS,
            allow_private_fetch: false,
        }
    }
}

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
