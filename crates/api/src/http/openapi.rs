//! The API's OpenAPI 3.1 description, made from its types (`model`, the
//! request bodies beside each parser) and its handlers' annotations, and
//! served at `GET /api/openapi.json` (no key, cacheable). The errors every
//! keyed operation may answer (401, 429, 500, 503), and every operation
//! with a body (413, 415), are added here to each.

use std::sync::OnceLock;

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{RefOr, Response as Answer, ResponseBuilder};
use utoipa::{Modify, OpenApi, ToSchema};

use super::{cards, files, indexes, search, threads, visualize};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "zdr-host",
        description = "The service API of zdr-host: files, visualize, knowledge search, private indexes, saved views, threads and card images, as the service's SDK calls them; and the embed a card's data are posted to. docs/service-api.md says what each does.",
        license(name = "MIT OR Apache-2.0", identifier = "MIT OR Apache-2.0"),
    ),
    paths(
        files::upload_url, files::receive, files::post_files, files::get, files::update, files::delete,
        files::cleaned, files::connect, files::connector_list,
        visualize::visualize, visualize::apply_views, visualize::views, visualize::create_view,
        indexes::list, indexes::create, indexes::put, indexes::patch, indexes::add_files,
        search::search, threads::threads, threads::thread, threads::messages,
        cards::image, cards::page, embed, document,
    ),
    security(("api_key" = [])),
    modifiers(&Keyed),
    tags(
        (name = "files", description = "Files uploaded or connected, and their cleaned tables (4.1, 4.2, 4.4, 4.12)"),
        (name = "visualize", description = "Cards from CSV or files (4.5)"),
        (name = "saved views", description = "Saved views and their cards (4.6)"),
        (name = "search", description = "Knowledge search (4.3)"),
        (name = "private indexes", description = "Private indexes (4.7-4.11)"),
        (name = "threads", description = "Threads of visualize and search calls (4.13-4.15)"),
        (name = "cards", description = "A card's image and page"),
        (name = "embed", description = "Where a card's data are posted to be drawn (4.16); nothing is kept"),
        (name = "meta", description = "This document"),
    ),
)]
pub struct ApiDoc;

/// The form the widget posts into the card's frame (4.16).
#[derive(ToSchema)]
#[allow(dead_code)] // documents the form the embed reads (crates/embed-page)
pub(crate) struct EmbedForm {
    /// The card's `visualization_data`, as JSON text.
    visualization_data: String,
    /// The frame's size in CSS px (`600x420`), for the card's layout.
    frame_size: Option<String>,
}

// crates/embed-page serves it; it is documented here so that a client made
// from this document can finish flow 3 (4.17).
/// 4.16: a card drawn from data posted to it.
#[utoipa::path(post, path = "/embed/{card_id}/", operation_id = "embed_card", tag = "embed", security(()),
    params(("card_id" = String, Path, description = "The card's id from visualize"), ("dark_mode" = Option<bool>, Query)),
    request_body(content = EmbedForm, content_type = "application/x-www-form-urlencoded"),
    description = "The card drawn from the posted data, as a page for an iframe. Nothing of the data is kept: the answer is `Cache-Control: no-store`.",
    responses((status = 200, description = "The card", content_type = "text/html", body = String),
        (status = 400, description = "The data are not a card; the page says where", content_type = "text/html", body = String),
        (status = 413, description = "More than the host takes", content_type = "text/html", body = String)))]
#[allow(dead_code)] // the route is crates/embed-page's
fn embed() {}

/// `GET /api/openapi.json`.
#[utoipa::path(get, path = "/api/openapi.json", operation_id = "get_openapi_document", tag = "meta", security(()),
    responses((status = 200, description = "This document, OpenAPI 3.1", body = serde_json::Value)))]
pub async fn document() -> Response {
    static TEXT: OnceLock<String> = OnceLock::new();
    let text = TEXT.get_or_init(|| {
        ApiDoc::openapi()
            .to_pretty_json()
            .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    });
    let mut response = text.clone().into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(
        CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    response
}

/// Whether an operation says it needs no key (`security: [{}]`); any other
/// (none of its own: the document's `api_key`) needs one.
pub(crate) fn needs_no_key(operation: &utoipa::openapi::path::Operation) -> bool {
    operation.security.as_deref() == Some(&[SecurityRequirement::default()][..])
}

/// The key's scheme, and the answers any keyed operation may give.
struct Keyed;

impl Modify for Keyed {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "api_key",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
                "X-API-Key",
                "An API key of this host (--api-key, --api-keys-file)",
            ))),
        );
        for (path, item) in doc.paths.paths.iter_mut() {
            // The embed's errors are pages, as it documents them.
            if path.starts_with("/embed/") {
                continue;
            }
            for operation in [
                &mut item.get,
                &mut item.post,
                &mut item.put,
                &mut item.patch,
                &mut item.delete,
            ]
            .into_iter()
            .flatten()
            {
                let keyed = !needs_no_key(operation);
                let common: &[(&str, &str)] = if keyed {
                    &[
                        ("401", "No key, or not one of this host's"),
                        ("429", "More requests than this key may make; Retry-After says when to try again"),
                        ("500", "The request could not be completed (the host's log has its id)"),
                        ("503", "The host is busy, out of time for the work, or its storage does not answer"),
                    ]
                } else {
                    &[(
                        "500",
                        "The request could not be completed (the host's log has its id)",
                    )]
                };
                // Any body is read under the host's limit and as its type.
                let bodied: &[(&str, &str)] = if operation.request_body.is_some() {
                    &[
                        ("413", "The body is larger than the host takes"),
                        ("415", "The body is not of the type the operation reads"),
                    ]
                } else {
                    &[]
                };
                for (status, description) in common.iter().chain(bodied) {
                    operation
                        .responses
                        .responses
                        .entry((*status).to_owned())
                        .or_insert_with(|| error_answer(description));
                }
            }
        }
    }
}

fn error_answer(description: &str) -> RefOr<Answer> {
    RefOr::T(
        ResponseBuilder::new()
            .description(description)
            .content(
                "application/json",
                utoipa::openapi::ContentBuilder::new()
                    .schema(Some(RefOr::Ref(utoipa::openapi::Ref::from_schema_name(
                        "Error",
                    ))))
                    .build(),
            )
            .build(),
    )
}
