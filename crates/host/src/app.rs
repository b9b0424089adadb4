//! The router, its middleware, and the server with graceful shutdown.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use axum::{middleware, Router};
use tower_http::services::{ServeDir, ServeFile};

use crate::config::Config;
use crate::embed;
use crate::html::error_page;
use crate::request_log;
use crate::security;
use crate::shell;

/// What every handler shares: the settings, read once.
#[derive(Clone)]
pub struct Shared {
    pub config: Arc<Config>,
}

async fn healthz() -> &'static str {
    "ok\n"
}

async fn not_found(State(shared): State<Shared>) -> Response {
    let page = error_page(
        404,
        "Not found",
        "There is nothing at this address. Cards are posted to /embed/{card_id}/.",
        "",
    );
    embed::respond(StatusCode::NOT_FOUND, page, &shared.config.frame_ancestors)
}

/// The whole service: embeds, the postMessage shell, health, the demo
/// pages and the package.
pub fn app(config: Config) -> Router {
    let shared = Shared {
        config: Arc::new(config),
    };
    let config = &shared.config;
    // GET is the postMessage shell; an explicit HEAD wins over GET's.
    let embed_route = get(shell::page)
        .post(embed::post)
        .head(embed::probe)
        .fallback(embed::method_not_allowed);
    let mut router = Router::new()
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
                .not_found_service(axum::routing::any(not_found).with_state(shared.clone())),
        );

    let not_found_service = axum::routing::any(not_found).with_state(shared.clone());
    let router = if config.www.is_dir() {
        router.fallback_service(
            ServeDir::new(&config.www)
                .call_fallback_on_method_not_allowed(true)
                .not_found_service(not_found_service),
        )
    } else {
        router.fallback(not_found)
    };
    router
        .layer(middleware::from_fn_with_state(
            shared.clone(),
            security::headers,
        ))
        .layer(middleware::from_fn(request_log::log))
        .with_state(shared)
}

/// Binds, prints the address, and serves until SIGINT or SIGTERM; requests
/// in flight are finished first.
pub async fn serve(config: Config) -> std::io::Result<()> {
    let address = SocketAddr::new(config.bind, config.port);
    let listener = tokio::net::TcpListener::bind(address).await?;
    let bound = listener.local_addr()?;
    // Printed on stdout so scripts and tests can find a port chosen by the OS.
    println!("zdr-host listening on http://{bound}/");
    axum::serve(listener, app(config))
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    tracing::info!("zdr-host stopped");
    Ok(())
}

async fn shutdown_signal() {
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
}
