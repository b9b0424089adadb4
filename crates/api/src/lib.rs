//! The service's API, as its specification describes it and the service's
//! own SDK (`tako-sdk`) expects it (`docs/service-api.md` says what this
//! host serves and every choice it made): `X-API-Key` on every `/api` endpoint, one
//! tenant per key. Three layers, each depending only on the next:
//!
//! - [`http`]: routes and handlers that only translate a request into a
//!   typed value ([`model`]) and an answer back;
//! - [`service`]: the rules (files, cards, visualize, search, indexes,
//!   threads, saved views), with the file readers ([`table`]), the
//!   recommender and the host's admission ([`work`]);
//! - [`store`]: what is kept, behind two traits: rows in SQLite or PostgreSQL, objects in a folder or an S3-compatible bucket.
//!
//! Errors are one JSON shape ([`error`]). Documented in
//! docs/service-api.md.

mod answer;
mod cards;
pub mod config;
mod context;
mod error;
mod fetch;
mod http;
pub(crate) mod ids;
mod keys;
pub mod model;
mod query;
mod rate;
mod recommend;
pub mod service;
mod sign;
pub mod store;
mod work;

// The readers live in a crate of their own, optimised in dev and test builds
// too (the root Cargo.toml says why); the API names them as its module.
use zdr_table as table;

use std::sync::Arc;

use axum::Router;

pub use config::ApiConfig;
pub(crate) use context::blocking;
pub use context::Api;
pub use error::ApiError;
pub use keys::{Keys, Tenant};

use zdr_limits::admission::Lanes;
use zdr_limits::Stop;

/// The largest file the API takes (spec section 8: files 100 KB).
pub const MAX_FILE: usize = 100 * 1024;

/// Checks what the API needs at start (the keys), so that `serve` fails
/// with the reason instead of answering 503 later.
pub fn check(config: &ApiConfig) -> Result<usize, String> {
    let keys = Keys::load(&config.api_keys, config.api_keys_file.as_deref())?;
    Ok(keys.len())
}

/// `/api/...`, the upload form's target `/upload/` and a card's page
/// `/card/{card_id}/`, over the host's admission `lanes`.
pub fn routes<S: Clone + Send + Sync + 'static>(
    config: Arc<ApiConfig>,
    lanes: Arc<Lanes>,
    listen: String,
) -> Router<S> {
    routes_of(Arc::new(Api::new(config, lanes, listen)))
}

/// [`routes`] of an [`Api`] the caller keeps (for `/readyz`, and to open
/// its store at start).
pub fn routes_of<S: Clone + Send + Sync + 'static>(api: Arc<Api>) -> Router<S> {
    http::routes(api)
}

/// Reads a table from `bytes` of `format` as an upload is read, for the
/// fuzz target: the same bounds, no deadline.
#[doc(hidden)]
pub fn read_table(format: &str, bytes: &[u8]) -> Result<(usize, usize), String> {
    table::read(format, bytes, &Stop::never())
        .map(|t| (t.rows, t.columns.len()))
        .map_err(|e| e.to_string())
}

/// Reads `question` against the CSV `csv` as `visualize` does, for the
/// fuzz target: the card's `visualization_data` as JSON, or why not.
#[doc(hidden)]
pub fn answer_question(csv: &[u8], question: &str) -> Result<Option<String>, String> {
    let table = table::read_csv(csv, &Stop::never()).map_err(|e| e.to_string())?;
    let drawing = query::Drawing {
        row: "rows",
        dark: false,
    };
    let plan = query::understand(question, &table, &query::Aliases::default());
    Ok(
        query::answer(&plan, question, &table, None, &drawing).and_then(|answered| {
            answered
                .cards
                .first()
                .and_then(|card| serde_json::to_string(&card.chart).ok())
        }),
    )
}
