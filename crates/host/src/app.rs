//! The router and its middleware.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{middleware, Extension, Router};
use tower::util::MapResponseLayer;
use tower::Layer;
use tower_http::services::{ServeDir, ServeFile};

use zdr_api as api;
use zdr_embed_page::error::AppError;
use zdr_embed_page::limits::Lanes;
use zdr_embed_page::{embed, request_log, security, shell};

use crate::config::Config;

use crate::metrics::{self, Metrics};

/// Alive: the process answers.
async fn healthz() -> &'static str {
    "ok\n"
}

/// Ready for traffic: the service API's database and object store answer
/// (a host whose API has no keys never opens them).
async fn readyz(State(api): State<Arc<api::Api>>) -> Response {
    match api.ready().await {
        Ok(()) => "ready\n".into_response(),
        Err(reason) => {
            tracing::warn!("not ready: {reason}");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                format!("not ready: {reason}\n"),
            )
                .into_response()
        }
    }
}

async fn not_found() -> AppError {
    AppError::NotFound
}

/// The whole service: embeds, the postMessage shell, health, the demo
/// pages and the package.
pub fn app(config: Config) -> Router {
    build(config).router
}

/// The public service and the operator's metrics, as a host serves them
/// on two addresses.
pub fn app_and_metrics(config: Config) -> (Router, Router) {
    let built = build(config);
    (built.router, built.metrics)
}

/// What a host serves: the public router, the service API it serves (to
/// open its store at start), and `/metrics` for an address of its own.
pub struct Built {
    pub router: Router,
    pub api: Arc<api::Api>,
    pub metrics: Router,
}

pub fn build(config: Config) -> Built {
    let lanes = Arc::new(Lanes::new(&config.admission.admission()));
    let listen = format!("{}:{}", config.server.bind, config.server.port);
    let api = Arc::new(api::Api::new(Arc::new(config.api), lanes.clone(), listen));
    let embed = Arc::new(config.embed);
    let server = config.server;
    let metrics = Arc::new(Metrics::new(lanes.clone()));
    // GET is the postMessage shell; an explicit HEAD wins over GET's.
    let embed_route = get(shell::page)
        .post(embed::post)
        .head(embed::probe)
        .fallback(embed::method_not_allowed);
    let mut router = Router::new()
        .merge(api::routes_of(api.clone()))
        .route("/embed/{card_id}/", embed_route.clone())
        // The spec's address ends in a slash; a missing one is forgiven.
        .route("/embed/{card_id}", embed_route)
        .route(shell::SCRIPT_PATH, get(shell::script))
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz).with_state(api.clone()));
    // Request counts and latencies by route are the operator's: served
    // on an address of their own, never beside the cards.
    let metrics_router = Router::new()
        .route("/metrics", get(metrics::page).with_state(metrics.clone()))
        .fallback(not_found);

    // The package as `npm install zdr-embed` lays it out: package.json and
    // the built pkg/ folder, nothing else of the repository.
    let package = &server.package;
    router = router
        .route_service(
            "/node_modules/zdr-embed/package.json",
            ServeFile::new(package.join("package.json")),
        )
        .nest_service(
            "/node_modules/zdr-embed/pkg",
            ServeDir::new(package.join("pkg"))
                // A post to a wrong address gets the 404 page, not a bare 405.
                .call_fallback_on_method_not_allowed(true)
                .not_found_service(axum::routing::any(not_found)),
        );

    let router = if server.www.is_dir() {
        // The demo's own policy for the demo's files, and for nothing else.
        let demo = MapResponseLayer::new(security::demo).layer(
            ServeDir::new(&server.www)
                .call_fallback_on_method_not_allowed(true)
                .not_found_service(axum::routing::any(not_found)),
        );
        router.fallback_service(demo)
    } else {
        router.fallback(not_found)
    };
    let router = router
        .layer(Extension(lanes))
        .layer(middleware::from_fn_with_state(
            embed.clone(),
            security::headers,
        ))
        .layer(middleware::from_fn_with_state(metrics, metrics::record))
        .layer(middleware::from_fn(request_log::log))
        .with_state(embed);
    Built {
        router,
        api,
        metrics: metrics_router,
    }
}

/// `//api/v1/…` is `/api/v1/…`: the service's earlier SDK (0.1.41) joins
/// its default server URL, which ends in a slash, to paths that begin with
/// one. Before routing, so every route is reached either way.
pub fn collapse_leading_slashes<B>(mut request: axum::http::Request<B>) -> axum::http::Request<B> {
    let path = request.uri().path();
    if path.starts_with("//") {
        let rest = path.trim_start_matches('/');
        let query = request
            .uri()
            .query()
            .map_or(String::new(), |q| format!("?{q}"));
        if let Ok(uri) = format!("/{rest}{query}").parse() {
            *request.uri_mut() = uri;
        }
    }
    request
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_slashes_collapse_and_nothing_else_changes() {
        let path = |uri: &str| {
            let request = axum::http::Request::builder()
                .uri(uri)
                .body(())
                .unwrap_or_default();
            collapse_leading_slashes(request).uri().to_string()
        };
        assert_eq!(
            path("//api/v1/knowledge_search"),
            "/api/v1/knowledge_search"
        );
        assert_eq!(path("///api/v1/image/x/?a=1"), "/api/v1/image/x/?a=1");
        assert_eq!(path("/api/v1/threads/"), "/api/v1/threads/");
        assert_eq!(path("/embed//x/"), "/embed//x/");
    }
}
