//! The service API of `../shared/spec/service-api.md`, as the service's own
//! SDK (`tako-sdk`) expects it: `X-API-Key` on every `/api` endpoint, one
//! tenant per key. Three layers, each depending only on the next:
//!
//! - [`http`]: routes and handlers that only translate a request into a
//!   typed value ([`model`]) and an answer back;
//! - [`service`]: the rules (files, cards, visualize, search, indexes,
//!   threads, saved views), with the file readers ([`table`]), the
//!   recommender and the host's admission ([`work`]);
//! - [`store`]: what is kept, behind a trait (SQLite and a folder).
//!
//! Errors are one JSON shape ([`error`]). Documented in
//! docs/service-api.md.

mod error;
mod fetch;
mod http;
pub(crate) mod ids;
mod keys;
pub mod model;
mod rate;
mod recommend;
pub mod service;
mod sign;
pub mod store;
mod table;
mod work;

use std::sync::{Arc, OnceLock};

use axum::http::HeaderMap;
use axum::Router;

pub use error::ApiError;
pub use keys::{Keys, Tenant};
use store::{SqliteStore, Store};

use zdr_embed_page::config::Config;
use zdr_embed_page::limits::{Lanes, Stop};

/// The largest file the API takes (spec section 8: files 100 KB).
pub const MAX_FILE: usize = 100 * 1024;

/// What every service shares. The store opens on first use, so a host
/// whose API is never called writes nothing to disk.
pub struct Api {
    keys: Result<Keys, String>,
    config: Arc<Config>,
    /// The host's one admission, shared with the embed.
    lanes: Arc<Lanes>,
    rate: rate::RateLimit,
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

    fn keys(&self) -> Result<&Keys, ApiError> {
        self.keys
            .as_ref()
            .map_err(|e| ApiError::Unavailable(e.clone()))
    }

    fn store(&self) -> Result<Arc<dyn Store>, ApiError> {
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

    fn fetcher(&self) -> Result<&fetch::Fetcher, ApiError> {
        self.fetcher
            .get_or_init(|| fetch::Fetcher::new(self.config.allow_private_fetch))
            .as_ref()
            .map_err(|e| ApiError::Unavailable(format!("its HTTP client could not start ({e})")))
    }

    /// The address clients reach this host at: `--public-url`, or http://
    /// and the request's Host.
    fn base_url(&self, headers: &HeaderMap) -> String {
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
async fn blocking<T: Send + 'static>(
    api: &Api,
    work: impl FnOnce(&dyn Store) -> Result<T, store::StoreError> + Send + 'static,
) -> Result<T, ApiError> {
    let store = api.store()?;
    tokio::task::spawn_blocking(move || work(store.as_ref()))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)
}

/// Checks what the API needs at start (the keys), so that `serve` fails
/// with the reason instead of answering 503 later.
pub fn check(config: &Config) -> Result<usize, String> {
    let keys = Keys::load(&config.api_keys, config.api_keys_file.as_deref())?;
    Ok(keys.len())
}

/// `/api/...`, the upload form's target `/upload/` and a card's page
/// `/card/{card_id}/`, over the host's admission `lanes`.
pub fn routes<S: Clone + Send + Sync + 'static>(
    config: Arc<Config>,
    lanes: Arc<Lanes>,
) -> Router<S> {
    http::routes(Arc::new(Api::new(config, lanes)))
}

/// Reads a table from `bytes` of `format` as an upload is read, for the
/// fuzz target: the same bounds, no deadline.
#[doc(hidden)]
pub fn read_table(format: &str, bytes: &[u8]) -> Result<(usize, usize), String> {
    table::read(format, bytes, &Stop::never())
        .map(|t| (t.rows, t.columns.len()))
        .map_err(|e| e.to_string())
}
