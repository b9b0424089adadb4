//! The host's settings: its own (where it listens, how long it waits for
//! a client, what it serves besides), the admission it shares between the
//! embed and the API, then the embed's and the API's, flattened into one
//! command line (`zdr-host --help`); each flag has an environment variable.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use zdr_api::ApiConfig;
pub use zdr_embed_page::config::{EmbedConfig, OriginList};
use zdr_embed_page::limits::Admission;

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

#[derive(Debug, Clone, Default, Args)]
pub struct Config {
    #[command(flatten)]
    pub server: ServerConfig,
    #[command(flatten)]
    pub admission: AdmissionConfig,
    #[command(flatten)]
    pub embed: EmbedConfig,
    #[command(flatten)]
    pub api: ApiConfig,
}

/// Where the host listens, how long it gives a client, what it serves at /.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Server")]
pub struct ServerConfig {
    /// Address to listen on.
    #[arg(long, env = "ZDR_BIND", default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Port to listen on (0 picks a free one; the address is printed).
    #[arg(long, env = "ZDR_PORT", default_value_t = 8080)]
    pub port: u16,
    /// The demo pages to serve at / (skipped when the folder is missing).
    #[arg(long, env = "ZDR_WWW", default_value = "www")]
    pub www: PathBuf,
    /// The npm package folder (its package.json and pkg/), served at
    /// /node_modules/zdr-embed/ as an application would install it.
    #[arg(long, env = "ZDR_PACKAGE", default_value = ".")]
    pub package: PathBuf,
    /// The time a client has to send a request's headers.
    #[arg(long, env = "ZDR_HEADER_TIMEOUT", default_value = "10s", value_parser = parse_duration)]
    pub header_timeout: Duration,
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
    /// Where `/metrics` answers, an address of its own (never the public
    /// listener's): `host:port`, or `off`. Unset, 127.0.0.1:9464 where that
    /// port is free (a warning where it is not); set, an address that
    /// cannot be bound stops the host at start.
    #[arg(long, env = "ZDR_METRICS_BIND", value_parser = parse_metrics_bind)]
    pub metrics_bind: Option<MetricsBind>,
}

/// Where metrics are served, as `--metrics-bind` says.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MetricsBind {
    Off,
    At(SocketAddr),
}

/// The metrics address when none is set: loopback, Prometheus's exporter
/// range.
pub const DEFAULT_METRICS: SocketAddr =
    SocketAddr::new(IpAddr::V4(std::net::Ipv4Addr::LOCALHOST), 9464);

fn parse_metrics_bind(value: &str) -> Result<MetricsBind, String> {
    if value.eq_ignore_ascii_case("off") {
        return Ok(MetricsBind::Off);
    }
    value.parse().map(MetricsBind::At).map_err(|_| {
        format!("--metrics-bind takes host:port (127.0.0.1:9464) or off, not {value:?}")
    })
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            bind: IpAddr::from([127, 0, 0, 1]),
            port: 8080,
            www: PathBuf::from("www"),
            package: PathBuf::from("."),
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            write_timeout: Duration::from_secs(30),
            max_connections: 512,
            metrics_bind: None,
        }
    }
}

/// The one admission of heavy work, shared by the embed and the API: the
/// bodies read, the draws at once, the queue, the memory, the deadline.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Admission (shared by the embed and the API)")]
pub struct AdmissionConfig {
    /// Largest request body in bytes; larger posts get 413.
    #[arg(long, env = "ZDR_BODY_LIMIT", default_value_t = DEFAULT_BODY_LIMIT)]
    pub body_limit: usize,
    /// The time a client has to send a whole request body.
    #[arg(long, env = "ZDR_BODY_TIMEOUT", default_value = "30s", value_parser = parse_duration)]
    pub body_timeout: Duration,
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
}

impl Default for AdmissionConfig {
    fn default() -> Self {
        AdmissionConfig {
            body_limit: DEFAULT_BODY_LIMIT,
            body_timeout: Duration::from_secs(30),
            max_concurrent_draws: cores(),
            draw_queue: 8,
            draw_memory: DEFAULT_DRAW_MEMORY,
            body_memory: DEFAULT_BODY_MEMORY,
            small_post: 64 * 1024,
            draw_timeout: Duration::from_secs(10),
        }
    }
}

impl AdmissionConfig {
    pub fn admission(&self) -> Admission {
        Admission {
            concurrent: self.max_concurrent_draws,
            queue: self.draw_queue,
            draw_memory: self.draw_memory,
            body_memory: self.body_memory,
            small_post: self.small_post,
            body_limit: self.body_limit,
            body_timeout: self.body_timeout,
            deadline: self.draw_timeout,
        }
    }
}

/// Drawing is CPU work: more draws at once than cores only slows each.
fn cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| u32::try_from(n.get()).unwrap_or(u32::MAX))
}

/// "10s", "500ms", "2m", or a bare number of seconds.
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
