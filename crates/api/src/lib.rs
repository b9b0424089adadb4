//! The service API of `../shared/spec/service-api.md` (issue 16), beside
//! the embed: `X-API-Key` on every `/api` endpoint, one tenant per key,
//! state in SQLite and an object folder under `--data-dir`
//! ([`store`]), presigned uploads checked as S3 checks a POST policy
//! ([`sign`], [`upload`]), and the files read into clean tables
//! ([`table`], [`files`]). Errors are one JSON shape ([`error`]).
//! Documented in docs/service-api.md.

mod body;
mod cards;
mod connector;
mod error;
mod extract;
mod fetch;
mod files;
pub(crate) mod ids;
mod indexes;
mod keys;
mod rate;
mod recommend;
mod saved_views;
mod search;
mod sign;
mod store;
mod table;
mod threads;
mod upload;
mod visualize;
mod work;

use std::sync::{Arc, OnceLock};

use axum::extract::{Request, State};
use axum::http::HeaderMap;
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::{get, post, put};
use axum::Router;

pub use error::ApiError;
pub use keys::{Keys, Tenant};
use store::Store;

use zdr_embed_page::config::Config;
use zdr_embed_page::limits::{Lanes, Stop};

/// The largest file the API takes (spec section 8: files 100 KB).
pub const MAX_FILE: usize = 100 * 1024;

/// What every API handler shares. The store opens on first use, so a host
/// whose API is never called writes nothing to disk.
pub struct Api {
    keys: Result<Keys, String>,
    config: Arc<Config>,
    /// The host's one admission, shared with the embed.
    lanes: Arc<Lanes>,
    rate: rate::RateLimit,
    store: OnceLock<Result<Arc<Store>, String>>,
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

    fn store(&self) -> Result<Arc<Store>, ApiError> {
        self.store
            .get_or_init(|| {
                Store::open(&self.config.data_dir)
                    .map(Arc::new)
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
    api: &Arc<Api>,
    work: impl FnOnce(&Store) -> Result<T, store::StoreError> + Send + 'static,
) -> Result<T, ApiError> {
    let store = api.store()?;
    tokio::task::spawn_blocking(move || work(&store))
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

/// `X-API-Key` (any case) names a tenant, or the request ends here.
async fn authenticate(
    State(api): State<Arc<Api>>,
    mut request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let keys = api.keys()?;
    let key = request
        .headers()
        .get("x-api-key")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .ok_or(ApiError::NoKey)?;
    let tenant = keys.tenant(key).cloned().ok_or(ApiError::UnknownKey)?;
    api.rate
        .take(&tenant.0, std::time::Instant::now())
        .map_err(|seconds| {
            ApiError::RateLimited(
                format!(
                    "{} a second, {} at once",
                    api.config.api_rate, api.config.api_burst
                ),
                seconds,
            )
        })?;
    request.extensions_mut().insert(tenant);
    Ok(next.run(request).await)
}

/// Any answer of the API that is an error but not its JSON body (a
/// framework's own rejection, a layer's) is made one, with its status and
/// headers kept.
async fn json_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let json = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let text: String = String::from_utf8_lossy(&text).chars().take(200).collect();
    let code = match status.as_u16() {
        404 => "not_found",
        405 => "method_not_allowed",
        408 => "request_timeout",
        413 => "too_large",
        415 => "unsupported_media_type",
        429 => "rate_limited",
        500..=599 => "internal_error",
        _ => "invalid_request",
    };
    let message = if status.is_server_error() || text.trim().is_empty() {
        status
            .canonical_reason()
            .unwrap_or("the request could not be answered")
            .to_owned()
    } else {
        text
    };
    let mut answer = ApiError::body(status, code, &message);
    for (name, value) in &parts.headers {
        if name != axum::http::header::CONTENT_TYPE && name != axum::http::header::CONTENT_LENGTH {
            answer.headers_mut().insert(name.clone(), value.clone());
        }
    }
    answer
}

/// A handler that panicked: the panic hook logged where; the client gets
/// the JSON error without anything of the panic.
fn panicked(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    ApiError::body(
        axum::http::StatusCode::INTERNAL_SERVER_ERROR,
        "internal_error",
        "the request could not be completed (the host's log says where it failed)",
    )
}

async fn not_found() -> ApiError {
    ApiError::NotFound
}

async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed
}

/// `/api/...` (keys required) and the upload form's target `/upload/`
/// (its signed fields are its authority).
pub fn routes<S: Clone + Send + Sync + 'static>(
    config: Arc<Config>,
    lanes: Arc<Lanes>,
) -> Router<S> {
    let api = Arc::new(Api::new(config, lanes));
    let keyed = Router::new()
        .route(
            "/api/v1/beta/file_upload_url",
            get(upload::upload_url).fallback(method_not_allowed),
        )
        .route(
            "/api/v1/beta/files",
            post(files::post_files).fallback(method_not_allowed),
        )
        .route(
            "/api/v1/beta/files/",
            post(files::post_files).fallback(method_not_allowed),
        )
        .route(
            "/api/v1/beta/files/{file_id}/",
            get(files::get_file).fallback(method_not_allowed),
        )
        .route(
            "/api/v1/beta/files/{file_id}/cleaned/",
            get(files::get_cleaned).fallback(method_not_allowed),
        )
        .route(
            "/api/v1/beta/file_connector",
            post(connector::connect).fallback(method_not_allowed),
        )
        .route(
            "/api/v1/beta/visualize",
            post(visualize::visualize).fallback(method_not_allowed),
        )
        .route(
            "/api/v1/beta/private_indexes/",
            get(indexes::list)
                .post(indexes::create)
                .fallback(method_not_allowed),
        )
        .route(
            "/api/v1/beta/private_indexes",
            get(indexes::list)
                .post(indexes::create)
                .fallback(method_not_allowed),
        )
        .route(
            "/api/v1/beta/private_indexes/{id}/",
            put(indexes::put)
                .patch(indexes::patch)
                .fallback(method_not_allowed),
        )
        .route(
            "/api/v1/beta/private_indexes/{id}/files/",
            post(indexes::add_files).fallback(method_not_allowed),
        )
        .route(
            "/api/v1/knowledge_search",
            post(search::search).fallback(method_not_allowed),
        )
        .route(
            "/api/v1/beta/saved_views",
            get(saved_views::list)
                .post(saved_views::create)
                .fallback(method_not_allowed),
        )
        .route(
            "/api/v1/beta/visualize_saved_view",
            post(saved_views::apply).fallback(method_not_allowed),
        )
        .route(
            "/api/v1/threads",
            get(threads::threads).fallback(method_not_allowed),
        )
        .route(
            "/api/v1/threads/",
            get(threads::threads).fallback(method_not_allowed),
        )
        .route(
            "/api/v1/threads/{thread_id}",
            get(threads::thread).fallback(method_not_allowed),
        )
        .route(
            "/api/v1/threads/{thread_id}/",
            get(threads::thread).fallback(method_not_allowed),
        )
        .route(
            "/api/v1/threads/{thread_id}/messages",
            get(threads::messages).fallback(method_not_allowed),
        )
        .route(
            "/api/v1/threads/{thread_id}/messages/",
            get(threads::messages).fallback(method_not_allowed),
        )
        .route(
            "/api/v1/image/{card_id}/",
            get(cards::image).fallback(method_not_allowed),
        )
        .route("/api/{*rest}", axum::routing::any(not_found))
        .route_layer(middleware::from_fn_with_state(api.clone(), authenticate))
        .route(
            upload::UPLOAD_PATH,
            post(upload::receive).fallback(method_not_allowed),
        )
        .layer(middleware::from_fn(json_errors))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(panicked));
    Router::new()
        .merge(keyed)
        .route("/card/{card_id}/", get(cards::page))
        .with_state(api)
}

/// Reads a table from `bytes` of `format` as an upload is read, for the
/// fuzz target: the same bounds, no deadline.
#[doc(hidden)]
pub fn read_table(format: &str, bytes: &[u8]) -> Result<(usize, usize), String> {
    table::read(format, bytes, &Stop::never())
        .map(|t| (t.rows, t.columns.len()))
        .map_err(|e| e.to_string())
}
