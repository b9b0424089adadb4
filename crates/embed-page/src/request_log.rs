//! One log line per request: its id, method, path, status, bytes, latency.
//! Never the query, the headers or the body: they may carry the card's data.
//! The id is in the `X-Request-Id` header of every answer, and on the page
//! of an error whose cause only the log holds.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use axum::body::HttpBody;
use axum::extract::Request;
use axum::http::header::CONTENT_LENGTH;
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

pub const X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Unique within the process, and unlikely to repeat across restarts.
#[derive(Debug, Clone)]
pub struct RequestId(pub String);

fn next_id() -> RequestId {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    static PREFIX: OnceLock<u32> = OnceLock::new();
    let prefix = PREFIX.get_or_init(|| {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos() ^ (d.as_secs() as u32));
        nanos ^ std::process::id().rotate_left(16)
    });
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    RequestId(format!("{prefix:08x}-{n}"))
}

pub async fn log(mut request: Request, next: Next) -> Response {
    let started = Instant::now();
    let id = next_id();
    request.extensions_mut().insert(id.clone());
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let mut response = next.run(request).await;
    if let Ok(value) = HeaderValue::from_str(&id.0) {
        response.headers_mut().insert(X_REQUEST_ID, value);
    }
    let bytes = response
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .or_else(|| response.body().size_hint().exact())
        .unwrap_or(0);
    tracing::info!(
        "{} {method} {path} {} {bytes}B {:.1}ms",
        id.0,
        response.status().as_u16(),
        started.elapsed().as_secs_f64() * 1000.0
    );
    response
}
