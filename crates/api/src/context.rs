//! What every service shares: the keys, the settings, the host's
//! admission, the rate, the store (opened on first use, so a host whose API
//! is never called writes nothing to disk) and the connector's HTTP client.

use std::sync::{Arc, OnceLock};

use crate::config::ApiConfig;
use axum::http::HeaderMap;
use zdr_limits::admission::Lanes;

use crate::error::ApiError;
use crate::keys::{Keys, Tenant};
use crate::store::{self, Store};
use crate::{fetch, rate};

/// What every service shares. The store opens on first use, so a host
/// whose API is never called writes nothing to disk.
pub struct Api {
    keys: Result<Keys, String>,
    pub(crate) config: Arc<ApiConfig>,
    /// The host's one admission, shared with the embed.
    pub(crate) lanes: Arc<Lanes>,
    pub(crate) rate: rate::RateLimit,
    /// The rows are shared with other hosts (PostgreSQL): a key's rate is
    /// taken from the bucket they share.
    shared_rates: bool,
    /// `host:port` the host listens at: the address handed out when
    /// neither --public-url nor a request's Host says one.
    listen: String,
    store: tokio::sync::OnceCell<Result<Arc<Store>, String>>,
    fetcher: OnceLock<Result<fetch::Fetcher, String>>,
}

impl Api {
    pub fn new(config: Arc<ApiConfig>, lanes: Arc<Lanes>, listen: String) -> Api {
        Api {
            keys: Keys::load(&config.api_keys, config.api_keys_file.as_deref()),
            rate: rate::RateLimit::new(config.api_rate, config.api_burst),
            shared_rates: store::Location::of(&config)
                .is_ok_and(|l| matches!(l.database, store::Database::Postgres(_))),
            config,
            lanes,
            listen,
            store: tokio::sync::OnceCell::new(),
            fetcher: OnceLock::new(),
        }
    }

    /// Takes a token of `tenant`'s rate: from the bucket every replica
    /// sees where the rows are shared (PostgreSQL), else this process's.
    /// A shared bucket that does not answer fails safe: this replica
    /// limits the key alone, and says so in the log.
    pub(crate) async fn take_token(&self, tenant: &Tenant) -> Result<(), u64> {
        let rate = self.config.api_rate;
        if rate.is_nan() || rate <= 0.0 {
            return Ok(());
        }
        let burst = f64::from(self.config.api_burst.max(1));
        if !self.shared_rates {
            return self.rate.take(&tenant.0, std::time::Instant::now());
        }
        if let Ok(store) = self.store().await {
            let key = tenant.clone();
            let shared =
                tokio::task::spawn_blocking(move || store.rows.take_token(&key, rate, burst)).await;
            match shared {
                Ok(Some(Ok(outcome))) => return outcome,
                Ok(Some(Err(error))) => tracing::warn!(
                    "the shared rate limit does not answer ({error}); this replica limits the key alone"
                ),
                Ok(None) => {}
                Err(error) => tracing::warn!("the shared rate limit failed ({error})"),
            }
        }
        self.rate.take(&tenant.0, std::time::Instant::now())
    }

    /// Sweeps the upload forms expired `ahead` from now (0 for now): a
    /// file posted with one is taken in, a form never posted forgotten
    /// with any upload it left. How many were forgotten.
    pub async fn sweep_uploads(
        self: &Arc<Self>,
        ahead: std::time::Duration,
    ) -> Result<usize, String> {
        let at = time::OffsetDateTime::now_utc() + ahead;
        crate::service::files::sweep_uploads(self, at)
            .await
            .map_err(|e| e.to_string())
    }

    /// Removes the previews expired `ahead` from now (0 for now), pictures
    /// and rows. How many.
    pub async fn sweep_previews(
        self: &Arc<Self>,
        ahead: std::time::Duration,
    ) -> Result<usize, String> {
        // A host whose API has no keys keeps nothing, and never opens its store.
        if self.keys.as_ref().is_ok_and(Keys::is_empty) {
            return Ok(0);
        }
        let at = time::OffsetDateTime::now_utc() + ahead;
        crate::service::previews::sweep(self, at)
            .await
            .map_err(|e| e.to_string())
    }

    pub(crate) fn keys(&self) -> Result<&Keys, ApiError> {
        self.keys
            .as_ref()
            .map_err(|e| ApiError::Unavailable(e.clone()))
    }

    /// The store, opened on a blocking thread the first time (a database
    /// pool and a bucket wait on the runtime there).
    pub(crate) async fn store(&self) -> Result<Arc<Store>, ApiError> {
        let config = self.config.clone();
        self.store
            .get_or_init(|| async move {
                let runtime = tokio::runtime::Handle::current();
                tokio::task::spawn_blocking(move || store::open(&config, runtime))
                    .await
                    .map_err(|e| e.to_string())
                    .and_then(|opened| opened.map_err(|e| e.to_string()))
                    .map(Arc::new)
            })
            .await
            .clone()
            .map_err(|e| {
                tracing::error!("api storage: {e}");
                ApiError::Unavailable(format!("its storage could not be opened ({e})"))
            })
    }

    /// Opens the store now (at start, for one shared with other hosts: the
    /// schema is migrated before the first request, and a wrong setting
    /// stops the host).
    pub async fn open_store(&self) -> Result<(), String> {
        self.store().await.map(|_| ()).map_err(|e| e.to_string())
    }

    /// `/readyz`: the database and the object store answer. A host whose
    /// API has no keys never opens them, and is ready for the embed.
    pub async fn ready(&self) -> Result<(), String> {
        if self.keys.as_ref().is_ok_and(Keys::is_empty) {
            return Ok(());
        }
        let store = self.store().await.map_err(|e| e.to_string())?;
        tokio::task::spawn_blocking(move || store.ready())
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())
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
            .unwrap_or_else(|| self.listen.clone());
        format!("http://{host}")
    }
}

/// Runs `work` on the store on a blocking thread, so database and file
/// calls never hold up the async workers; a failure is logged and answered
/// with a request id.
pub(crate) async fn blocking<T: Send + 'static>(
    api: &Api,
    work: impl FnOnce(&Store) -> Result<T, store::StoreError> + Send + 'static,
) -> Result<T, ApiError> {
    let store = api.store().await?;
    tokio::task::spawn_blocking(move || work(store.as_ref()))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)
}
