//! What every service shares: the keys, the settings, the host's
//! admission, the rate, the store (opened on first use, so a host whose API
//! is never called writes nothing to disk) and the connector's HTTP client.

use std::sync::{Arc, OnceLock};

use axum::http::HeaderMap;
use zdr_embed_page::config::Config;
use zdr_embed_page::limits::Lanes;

use crate::error::ApiError;
use crate::keys::Keys;
use crate::store::{self, SqliteStore, Store};
use crate::{fetch, rate};

/// What every service shares. The store opens on first use, so a host
/// whose API is never called writes nothing to disk.
pub struct Api {
    keys: Result<Keys, String>,
    pub(crate) config: Arc<Config>,
    /// The host's one admission, shared with the embed.
    pub(crate) lanes: Arc<Lanes>,
    pub(crate) rate: rate::RateLimit,
    store: OnceLock<Result<Arc<dyn Store>, String>>,
    fetcher: OnceLock<Result<fetch::Fetcher, String>>,
}

impl Api {
    pub fn new(config: Arc<Config>, lanes: Arc<Lanes>) -> Api {
        Api {
            keys: Keys::load(&config.api_keys, config.api_keys_file.as_deref()),
            rate: rate::RateLimit::new(config.api_rate, config.api_burst),
            config,
            lanes,
            store: OnceLock::new(),
            fetcher: OnceLock::new(),
        }
    }

    pub(crate) fn keys(&self) -> Result<&Keys, ApiError> {
        self.keys
            .as_ref()
            .map_err(|e| ApiError::Unavailable(e.clone()))
    }

    pub(crate) fn store(&self) -> Result<Arc<dyn Store>, ApiError> {
        self.store
            .get_or_init(|| {
                SqliteStore::open(&self.config.data_dir)
                    .map(|s| Arc::new(s) as Arc<dyn Store>)
                    .map_err(|e| e.to_string())
            })
            .clone()
            .map_err(|e| {
                tracing::error!("api storage: {e}");
                ApiError::Unavailable(format!("its storage could not be opened ({e})"))
            })
    }

    pub(crate) fn fetcher(&self) -> Result<&fetch::Fetcher, ApiError> {
        self.fetcher
            .get_or_init(|| fetch::Fetcher::new(self.config.allow_private_fetch))
            .as_ref()
            .map_err(|e| ApiError::Unavailable(format!("its HTTP client could not start ({e})")))
    }

    /// The address clients reach this host at: `--public-url`, or http://
    /// and the request's Host.
    pub(crate) fn base_url(&self, headers: &HeaderMap) -> String {
        if let Some(url) = &self.config.public_url {
            return url.clone();
        }
        let host = headers
            .get(axum::http::header::HOST)
            .and_then(|h| h.to_str().ok())
            .filter(|h| {
                !h.is_empty()
                    && h.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b))
            })
            .map(str::to_owned)
            .unwrap_or_else(|| format!("{}:{}", self.config.bind, self.config.port));
        format!("http://{host}")
    }
}

/// Runs `work` on the store on a blocking thread, so database and file
/// calls never hold up the async workers; a failure is logged and answered
/// with a request id.
pub(crate) async fn blocking<T: Send + 'static>(
    api: &Api,
    work: impl FnOnce(&dyn Store) -> Result<T, store::StoreError> + Send + 'static,
) -> Result<T, ApiError> {
    let store = api.store()?;
    tokio::task::spawn_blocking(move || work(store.as_ref()))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)
}
