//! Downloads for the file connector (spec 4.4), made safe to point at any
//! URL a caller sends: http and https only, every address a name resolves
//! to checked before connecting (loopback, private, link-local, multicast,
//! documentation and other non-public ranges refused unless the operator
//! allows them), the same check on each redirect (at most 5), a connect
//! and a whole-download timeout, and the body read only up to the limit.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};

pub const MAX_REDIRECTS: usize = 5;
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
const TOTAL_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error("file_url must be an http or https URL")]
    Scheme,
    #[error("file_url is not a URL: {0}")]
    Url(String),
    #[error("{0} is not a public address; this host does not fetch from it")]
    NotPublic(String),
    #[error("the download is larger than the limit of {0} bytes")]
    TooLarge(usize),
    #[error("the server answered {0}")]
    Status(u16),
    #[error("the download failed: {0}")]
    Failed(String),
    #[error("the host is holding as many downloads and bodies as its memory allows")]
    Busy,
}

/// Is this an address anyone on the internet could reach? (RFC 6890's
/// special-purpose ranges are not.)
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => public_v4(v4),
            None => public_v6(v6),
        },
    }
}

fn public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_multicast()
        || ip.is_broadcast()
        || ip.is_documentation()
        || a == 0
        || a >= 240
        || (a == 100 && (64..128).contains(&b))
        || (a == 192 && b == 0 && c == 0)
        || (a == 198 && (18..20).contains(&b)))
}

fn public_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_multicast()
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
        || first == 0x2001 && ip.segments()[1] == 0x0db8
        || first == 0x0064 && ip.segments()[1] == 0xff9b
        || ip.to_ipv4().is_some())
}

/// Resolves names and keeps only the addresses allowed.
struct Guarded {
    allow_private: bool,
}

impl Resolve for Guarded {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_private = self.allow_private;
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let found: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let allowed: Vec<SocketAddr> = found
                .into_iter()
                .filter(|a| allow_private || is_public(a.ip()))
                .collect();
            if allowed.is_empty() {
                return Err(Box::new(FetchError::NotPublic(host))
                    as Box<dyn std::error::Error + Send + Sync>);
            }
            let addrs: Addrs = Box::new(allowed.into_iter());
            Ok(addrs)
        })
    }
}

/// An address written in the URL itself skips the resolver: checked here.
fn check_literal(url: &reqwest::Url, allow_private: bool) -> Result<(), FetchError> {
    let ip = match url.host() {
        Some(url::Host::Ipv4(v4)) => IpAddr::V4(v4),
        Some(url::Host::Ipv6(v6)) => IpAddr::V6(v6),
        Some(url::Host::Domain(_)) => return Ok(()),
        None => return Err(FetchError::Url("it has no host".into())),
    };
    if allow_private || is_public(ip) {
        Ok(())
    } else {
        Err(FetchError::NotPublic(ip.to_string()))
    }
}

pub struct Fetcher {
    client: reqwest::Client,
    allow_private: bool,
}

impl Fetcher {
    pub fn new(allow_private: bool) -> Result<Fetcher, String> {
        let policy = reqwest::redirect::Policy::custom(move |attempt| {
            if attempt.previous().len() >= MAX_REDIRECTS {
                attempt.error(FetchError::Failed(format!(
                    "more than {MAX_REDIRECTS} redirects"
                )))
            } else if !matches!(attempt.url().scheme(), "http" | "https") {
                attempt.error(FetchError::Scheme)
            } else if let Err(error) = check_literal(attempt.url(), allow_private) {
                attempt.error(error)
            } else {
                attempt.follow()
            }
        });
        let client = reqwest::Client::builder()
            .dns_resolver(Arc::new(Guarded { allow_private }))
            .redirect(policy)
            .connect_timeout(CONNECT_TIMEOUT)
            .timeout(TOTAL_TIMEOUT)
            .no_proxy()
            .user_agent("zdr-host file connector")
            .build()
            .map_err(|e| e.to_string())?;
        Ok(Fetcher {
            client,
            allow_private,
        })
    }

    /// The body of `url`, at most `limit` bytes, the final URL, and the
    /// body's share of `memory` (the host's body memory), taken as the bytes
    /// arrive and held as long as they are.
    pub async fn get(
        &self,
        url: &str,
        limit: usize,
        memory: &Arc<tokio::sync::Semaphore>,
    ) -> Result<
        (
            Vec<u8>,
            reqwest::Url,
            Option<tokio::sync::OwnedSemaphorePermit>,
        ),
        FetchError,
    > {
        let url = reqwest::Url::parse(url).map_err(|e| FetchError::Url(e.to_string()))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(FetchError::Scheme);
        }
        check_literal(&url, self.allow_private)?;
        let response = self.client.get(url).send().await.map_err(describe)?;
        let status = response.status();
        if !status.is_success() {
            return Err(FetchError::Status(status.as_u16()));
        }
        if response.content_length().is_some_and(|n| n > limit as u64) {
            return Err(FetchError::TooLarge(limit));
        }
        let final_url = response.url().clone();
        let mut body = Vec::new();
        let mut held: Option<tokio::sync::OwnedSemaphorePermit> = None;
        let mut stream = response.bytes_stream();
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(describe)?;
            if body.len() + chunk.len() > limit {
                return Err(FetchError::TooLarge(limit));
            }
            let share = u32::try_from(chunk.len())
                .ok()
                .and_then(|n| memory.clone().try_acquire_many_owned(n).ok())
                .ok_or(FetchError::Busy)?;
            match held.as_mut() {
                Some(held) => held.merge(share),
                None => held = Some(share),
            }
            body.extend_from_slice(&chunk);
        }
        Ok((body, final_url, held))
    }
}

/// reqwest's error with its causes, which say what went wrong (a refused
/// address, too many redirects, a timeout).
fn describe(error: reqwest::Error) -> FetchError {
    let mut source: Option<&dyn std::error::Error> = Some(&error);
    while let Some(cause) = source {
        if let Some(fetch) = cause.downcast_ref::<FetchError>() {
            return match fetch {
                FetchError::NotPublic(host) => FetchError::NotPublic(host.clone()),
                other => FetchError::Failed(other.to_string()),
            };
        }
        source = cause.source();
    }
    if error.is_timeout() {
        return FetchError::Failed("it took longer than the connector allows".into());
    }
    let mut text = error.to_string();
    let mut cause = std::error::Error::source(&error);
    while let Some(c) = cause {
        text = format!("{text}: {c}");
        cause = c.source();
    }
    FetchError::Failed(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_public_addresses_are_public() {
        for private in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "192.0.2.1",
            "198.18.0.1",
            "::1",
            "::",
            "fc00::1",
            "fd12::1",
            "fe80::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "2001:db8::1",
            "64:ff9b::a00:1",
        ] {
            assert!(
                !is_public(private.parse().unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST))),
                "{private}"
            );
        }
        for public in [
            "93.184.216.34",
            "8.8.8.8",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
        ] {
            assert!(
                is_public(public.parse().unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST))),
                "{public}"
            );
        }
    }
}
