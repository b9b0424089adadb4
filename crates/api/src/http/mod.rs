//! The API over HTTP: routes, keys, the rate, and handlers that only
//! translate (a request into a typed value, a service's answer into JSON).
//! No handler calls another; the rules are in [`crate::service`].

mod cards;
mod extract;
mod files;
mod indexes;
pub(crate) mod read;
mod search;
mod threads;
mod visualize;

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::{get, post, MethodRouter};
use axum::Router;

pub use extract::rules;

use crate::service::files::UPLOAD_PATH;
use crate::{Api, ApiError};

/// `X-API-Key` (any case) names a tenant, or the request ends here; a key
/// past its rate gets 429.
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
    api.take_token(&tenant).await.map_err(|seconds| {
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

/// `path` with and without its final slash: clients send both (the SDK's
/// async `knowledge_search` adds one), and a redirect would turn a POST
/// into a GET in some of them.
fn both(router: Router<Arc<Api>>, path: &str, method: MethodRouter<Arc<Api>>) -> Router<Arc<Api>> {
    let method = method.fallback(method_not_allowed);
    let (bare, slashed) = match path.strip_suffix('/') {
        Some(bare) => (bare.to_owned(), path.to_owned()),
        None => (path.to_owned(), format!("{path}/")),
    };
    router.route(&bare, method.clone()).route(&slashed, method)
}

/// `/api/...` (keys required, but for a card's image, whose id is its
/// authority), the upload form's target `/upload/` (its signed fields are
/// its authority), and a card's page `/card/{card_id}/`.
pub fn routes<S: Clone + Send + Sync + 'static>(api: Arc<Api>) -> Router<S> {
    let mut keyed = Router::new();
    for (path, method) in [
        ("/api/v1/beta/file_upload_url", get(files::upload_url)),
        ("/api/v1/beta/files", post(files::post_files)),
        (
            "/api/v1/beta/files/{file_id}/",
            get(files::get).patch(files::update).delete(files::delete),
        ),
        ("/api/v1/beta/files/{file_id}/cleaned/", get(files::cleaned)),
        (
            "/api/v1/beta/file_connector",
            get(files::connector_list).post(files::connect),
        ),
        ("/api/v1/beta/visualize", post(visualize::visualize)),
        (
            "/api/v1/beta/visualize_saved_view",
            post(visualize::apply_views),
        ),
        (
            "/api/v1/beta/saved_views",
            get(visualize::views).post(visualize::create_view),
        ),
        (
            "/api/v1/beta/private_indexes/",
            get(indexes::list).post(indexes::create),
        ),
        (
            "/api/v1/beta/private_indexes/{id}/",
            axum::routing::put(indexes::put).patch(indexes::patch),
        ),
        (
            "/api/v1/beta/private_indexes/{id}/files/",
            post(indexes::add_files),
        ),
        ("/api/v1/knowledge_search", post(search::search)),
        ("/api/v1/threads", get(threads::threads)),
        ("/api/v1/threads/{thread_id}", get(threads::thread)),
        (
            "/api/v1/threads/{thread_id}/messages",
            get(threads::messages),
        ),
    ] {
        keyed = both(keyed, path, method);
    }
    let keyed = keyed
        .route("/api/{*rest}", axum::routing::any(not_found))
        .route_layer(middleware::from_fn_with_state(api.clone(), authenticate));
    let open = both(Router::new(), "/api/v1/image/{card_id}/", get(cards::image)).route(
        UPLOAD_PATH,
        post(files::receive).fallback(method_not_allowed),
    );
    let api_paths = open
        .merge(keyed)
        .layer(middleware::from_fn(json_errors))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(panicked));
    Router::new()
        .merge(api_paths)
        .route("/card/{card_id}/", get(cards::page))
        .with_state(api)
}
