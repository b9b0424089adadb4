//! The server: an accept loop with a connection cap, hyper's HTTP/1 with a
//! header-read timeout, a socket that times out idle reads and stalled
//! writes, and graceful shutdown. `axum::serve` sets none of these timers.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_io_timeout::TimeoutStream;

use crate::app::build;
use crate::config::{Config, MetricsBind, DEFAULT_METRICS};

/// The most hyper buffers of a connection's incoming bytes.
const READ_AHEAD: usize = 64 * 1024;

/// How often a host sweeps the previews and upload forms past their expiry.
const SWEEP_EVERY: Duration = Duration::from_secs(300);

/// How long requests in flight may take to finish after SIGINT or SIGTERM.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(15);

/// Sweeps, every few minutes, the previews past their expiry and, where
/// forms go to a bucket, the upload forms past theirs. Each sweep is
/// idempotent: two replicas sweeping at once remove a thing once.
fn spawn_sweeper(api: Arc<zdr_api::Api>, uploads: bool) {
    tokio::spawn(async move {
        let first = tokio::time::Instant::now() + SWEEP_EVERY;
        let mut every = tokio::time::interval_at(first, SWEEP_EVERY);
        loop {
            every.tick().await;
            if let Err(error) = api.sweep_previews(Duration::ZERO).await {
                tracing::warn!("sweeping expired previews failed: {error}");
            }
            if uploads {
                if let Err(error) = api.sweep_uploads(Duration::ZERO).await {
                    tracing::warn!("sweeping expired upload forms failed: {error}");
                }
            }
        }
    });
}

/// Binds, prints the address, and serves until SIGINT or SIGTERM; requests
/// in flight are finished first.
pub async fn serve(config: Config) -> std::io::Result<()> {
    let crate::app::Built {
        router,
        api,
        metrics,
    } = build(config.clone());
    let shared = zdr_api::store::Location::of(&config.api)
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    if shared.is_shared() {
        // A database or bucket other hosts share: migrated before the first
        // request, and a wrong setting stops this host here.
        api.open_store().await.map_err(std::io::Error::other)?;
        api.ready()
            .await
            .map_err(|e| std::io::Error::other(format!("the shared stores do not answer: {e}")))?;
        tracing::info!("the service API keeps its data in {}", shared.describe());
    }
    spawn_sweeper(api.clone(), shared.is_shared());
    let address = SocketAddr::new(config.server.bind, config.server.port);
    let listener = TcpListener::bind(address).await?;
    let bound = listener.local_addr()?;
    // Printed on stdout so scripts and tests can find a port chosen by the OS.
    println!("zdr-host listening on http://{bound}/");
    serve_metrics(config.server.metrics_bind, metrics).await?;
    // Beyond the cap, connections wait in the kernel's listen backlog.
    let connections = Arc::new(Semaphore::new(config.server.max_connections as usize));
    let graceful = GracefulShutdown::new();
    let shutdown = shutdown_signal();
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            permit = connections.clone().acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(error) => {
                    // Out of file descriptors, most likely: wait, do not spin.
                    tracing::warn!("accept failed: {error}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let mut stream = TimeoutStream::new(stream);
        stream.set_read_timeout(Some(config.server.idle_timeout));
        stream.set_write_timeout(Some(config.server.write_timeout));
        let io = TokioIo::new(Box::pin(stream));
        let service = TowerToHyperService::new(tower::ServiceExt::map_request(
            router.clone(),
            crate::app::collapse_leading_slashes,
        ));
        let connection = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(config.server.header_timeout)
            // Queue the page's one buffer instead of copying it into hyper's
            // own; and read at most this much ahead (pipelined requests).
            .writev(true)
            .max_buf_size(READ_AHEAD)
            .serve_connection(io, service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // Timeouts and resets end connections as errors; that is their
            // purpose, not a fault of the service.
            if let Err(error) = connection.await {
                tracing::debug!("connection closed: {error}");
            }
            drop(permit);
        });
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(SHUTDOWN_GRACE) => {
            tracing::warn!("requests still running after {SHUTDOWN_GRACE:?}; stopping anyway");
        }
    }
    tracing::info!("zdr-host stopped");
    Ok(())
}

/// `/metrics` on its own address, as `--metrics-bind` says; the second
/// line on stdout says where ("zdr-host metrics off" when off or taken).
async fn serve_metrics(bind: Option<MetricsBind>, metrics: axum::Router) -> std::io::Result<()> {
    let address = match bind {
        Some(MetricsBind::Off) => None,
        Some(MetricsBind::At(address)) => Some(address),
        None => Some(DEFAULT_METRICS),
    };
    let listener = match address {
        None => None,
        Some(address) => match TcpListener::bind(address).await {
            Ok(listener) => Some(listener),
            // The default is best effort (another host on this machine may
            // hold it); an address asked for must be had.
            Err(error) if bind.is_none() => {
                tracing::warn!(
                    "metrics not served: {address} is taken ({error}); set --metrics-bind"
                );
                None
            }
            Err(error) => {
                return Err(std::io::Error::other(format!(
                    "--metrics-bind {address}: {error}"
                )))
            }
        },
    };
    match listener {
        Some(listener) => {
            println!(
                "zdr-host metrics on http://{}/metrics",
                listener.local_addr()?
            );
            tokio::spawn(async move {
                if let Err(error) = axum::serve(listener, metrics).await {
                    tracing::warn!("metrics listener stopped: {error}");
                }
            });
        }
        None => println!("zdr-host metrics off"),
    }
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
