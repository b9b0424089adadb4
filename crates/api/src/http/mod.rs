//! The API over HTTP: routes, keys, the rate, and handlers that only
//! translate (a request into a typed value, a service's answer into JSON).
//! No handler calls another; the rules are in [`crate::service`].

mod cards;
mod extract;
mod files;
mod indexes;
pub(crate) mod openapi;
pub(crate) mod read;
mod search;
mod threads;
mod visualize;

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::Response;
use std::collections::BTreeMap;

use axum::routing::{MethodFilter, MethodRouter};
use axum::Router;
use utoipa::openapi::path::{Operation, PathItem};
use utoipa::OpenApi;

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

/// The handler of the document's operation `id`, on `method`; `None` for
/// an operation another crate serves (the embed).
fn handler(id: &str, method: MethodFilter) -> Option<MethodRouter<Arc<Api>>> {
    let on = MethodRouter::new();
    Some(match id {
        "get_file_upload_url" => on.on(method, files::upload_url),
        "post_upload" => on.on(method, files::receive),
        "visualize_file" => on.on(method, files::post_files),
        "get_file" => on.on(method, files::get),
        "update_file" => on.on(method, files::update),
        "delete_file" => on.on(method, files::delete),
        "get_cleaned_file" => on.on(method, files::cleaned),
        "connect_file" => on.on(method, files::connect),
        "list_connected_files" => on.on(method, files::connector_list),
        "visualize" => on.on(method, visualize::visualize),
        "visualize_saved_view" => on.on(method, visualize::apply_views),
        "list_saved_views" => on.on(method, visualize::views),
        "create_saved_view" => on.on(method, visualize::create_view),
        "list_private_indexes" => on.on(method, indexes::list),
        "create_private_index" => on.on(method, indexes::create),
        "replace_private_index" => on.on(method, indexes::put),
        "update_private_index" => on.on(method, indexes::patch),
        "add_private_index_files" => on.on(method, indexes::add_files),
        "knowledge_search" => on.on(method, search::search),
        "list_threads" => on.on(method, threads::threads),
        "get_thread" => on.on(method, threads::thread),
        "list_thread_messages" => on.on(method, threads::messages),
        "get_card_image" => on.on(method, cards::image),
        "get_card_page" => on.on(method, cards::page),
        "get_openapi_document" => on.on(method, openapi::document),
        _ => return None,
    })
}

/// The operations of a path of the document, with their methods.
fn operations(item: &PathItem) -> impl Iterator<Item = (MethodFilter, &Operation)> {
    [
        (MethodFilter::GET, &item.get),
        (MethodFilter::POST, &item.post),
        (MethodFilter::PUT, &item.put),
        (MethodFilter::PATCH, &item.patch),
        (MethodFilter::DELETE, &item.delete),
    ]
    .into_iter()
    .filter_map(|(method, operation)| operation.as_ref().map(|o| (method, o)))
}

/// Routes with a key (an operation of the document with no `security` of
/// its own), routes without (a card's image and page, whose id is their
/// authority; the upload form's target, whose signed fields are; this
/// document), each path with its methods.
type Routes = BTreeMap<String, MethodRouter<Arc<Api>>>;

/// The routes of the document's operations, as [`Routes`] with a key and
/// without. Made from the document, so that the API serves what it
/// describes and nothing else.
fn documented() -> (Routes, Routes) {
    let (mut keyed, mut open) = (Routes::new(), Routes::new());
    for (path, item) in openapi::ApiDoc::openapi().paths.paths {
        for (method, operation) in operations(&item) {
            let id = operation.operation_id.as_deref().unwrap_or_default();
            let Some(route) = handler(id, method) else {
                continue;
            };
            let routes = if openapi::needs_no_key(operation) {
                &mut open
            } else {
                &mut keyed
            };
            let merged = match routes.remove(&path) {
                Some(before) => before.merge(route),
                None => route,
            };
            routes.insert(path.clone(), merged);
        }
    }
    (keyed, open)
}

/// The API's routes, as its OpenAPI document describes them: `/api/...`
/// (keys required, but where an operation says it needs none), the upload
/// form's target `/upload/`, and a card's page `/card/{card_id}/`.
pub fn routes<S: Clone + Send + Sync + 'static>(api: Arc<Api>) -> Router<S> {
    let (keyed, open) = documented();
    let keyed = keyed
        .into_iter()
        .fold(Router::new(), |router, (path, method)| {
            both(router, &path, method)
        })
        .route("/api/{*rest}", axum::routing::any(not_found))
        .route_layer(middleware::from_fn_with_state(api.clone(), authenticate));
    let (api_open, pages): (Vec<_>, Vec<_>) = open
        .into_iter()
        .partition(|(path, _)| path.starts_with("/api/") || path == UPLOAD_PATH);
    let api_paths = api_open
        .into_iter()
        .fold(Router::new(), |router, (path, method)| {
            both(router, &path, method)
        })
        .merge(keyed)
        .layer(middleware::from_fn(json_errors))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(panicked));
    pages
        .into_iter()
        .fold(Router::new().merge(api_paths), |router, (path, method)| {
            router.route(&path, method)
        })
        .with_state(api)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_of_the_document_has_its_handler_but_the_embed() {
        let mut served = 0;
        for (path, item) in openapi::ApiDoc::openapi().paths.paths {
            for (method, operation) in operations(&item) {
                let id = operation.operation_id.clone().unwrap_or_default();
                let handled = handler(&id, method).is_some();
                assert!(handled || id == "embed_card", "{path}: {id} has no handler");
                served += usize::from(handled);
            }
        }
        assert_eq!(served, 25);
    }
}
