//! A per-key rate limit: a token bucket for each API key, refilled at
//! `--api-rate` requests a second up to `--api-burst`; a request that finds
//! its bucket empty is answered 429 with the seconds until a token is
//! there. `--api-rate 0` turns it off. These buckets are this process's, a
//! single host's; replicas on PostgreSQL share one bucket a key in the
//! database (`Rows::take_token`), and fall back to these when it does not
//! answer.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

pub struct RateLimit {
    per_second: f64,
    burst: f64,
    buckets: Mutex<HashMap<String, Bucket>>,
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

impl RateLimit {
    pub fn new(per_second: f64, burst: u32) -> RateLimit {
        RateLimit {
            per_second,
            burst: f64::from(burst.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a token of `tenant`'s bucket; the whole seconds to wait when
    /// there is none. Buckets are kept only for the host's own keys, so
    /// their number is bounded by the keys'.
    pub fn take(&self, tenant: &str, now: Instant) -> Result<(), u64> {
        // 0 (or anything not a positive rate) turns the limit off.
        if self.per_second.is_nan() || self.per_second <= 0.0 {
            return Ok(());
        }
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let bucket = buckets.entry(tenant.to_owned()).or_insert(Bucket {
            tokens: self.burst,
            at: now,
        });
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * self.per_second).min(self.burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - bucket.tokens) / self.per_second).ceil().max(1.0) as u64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_burst_then_the_rate_and_each_key_its_own() {
        let limit = RateLimit::new(2.0, 3);
        let start = Instant::now();
        for _ in 0..3 {
            assert_eq!(limit.take("a", start), Ok(()));
        }
        assert_eq!(limit.take("a", start), Err(1));
        assert_eq!(limit.take("b", start), Ok(()), "another key's bucket");
        assert_eq!(limit.take("a", start + Duration::from_millis(500)), Ok(()));
        assert_eq!(limit.take("a", start + Duration::from_millis(500)), Err(1));
        let slow = RateLimit::new(0.1, 1);
        assert_eq!(slow.take("a", start), Ok(()));
        assert_eq!(slow.take("a", start), Err(10));
        let off = RateLimit::new(0.0, 1);
        for _ in 0..100 {
            assert_eq!(off.take("a", start), Ok(()));
        }
    }
}
