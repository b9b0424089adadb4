//! The router and its middleware.

use std::sync::Arc;

use axum::routing::get;
use axum::{middleware, Extension, Router};
use tower::util::MapResponseLayer;
use tower::Layer;
use tower_http::services::{ServeDir, ServeFile};

use zdr_api as api;
use zdr_embed_page::error::AppError;
use zdr_embed_page::limits::Lanes;
use zdr_embed_page::{embed, request_log, security, shell, Config};

async fn healthz() -> &'static str {
    "ok\n"
}

async fn not_found() -> AppError {
    AppError::NotFound
}

/// The whole service: embeds, the postMessage shell, health, the demo
/// pages and the package.
pub fn app(config: Config) -> Router {
    let lanes = Arc::new(Lanes::new(&config));
    let config = Arc::new(config);
    // GET is the postMessage shell; an explicit HEAD wins over GET's.
    let embed_route = get(shell::page)
        .post(embed::post)
        .head(embed::probe)
        .fallback(embed::method_not_allowed);
    let mut router = Router::new()
        .merge(api::routes(config.clone(), lanes.clone()))
        .route("/embed/{card_id}/", embed_route.clone())
        // The spec's address ends in a slash; a missing one is forgiven.
        .route("/embed/{card_id}", embed_route)
        .route(shell::SCRIPT_PATH, get(shell::script))
        .route("/healthz", get(healthz));

    // The package as `npm install zdr-embed` lays it out: package.json and
    // the built pkg/ folder, nothing else of the repository.
    let package = &config.package;
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

    let router = if config.www.is_dir() {
        // The demo's own policy for the demo's files, and for nothing else.
        let demo = MapResponseLayer::new(security::demo).layer(
            ServeDir::new(&config.www)
                .call_fallback_on_method_not_allowed(true)
                .not_found_service(axum::routing::any(not_found)),
        );
        router.fallback_service(demo)
    } else {
        router.fallback(not_found)
    };
    router
        .layer(Extension(lanes))
        .layer(middleware::from_fn_with_state(
            config.clone(),
            security::headers,
        ))
        .layer(middleware::from_fn(request_log::log))
        .with_state(config)
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
