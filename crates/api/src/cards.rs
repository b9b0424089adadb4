//! A card's `webpage_url` (`/card/{card_id}/`, a page anyone with its
//! random address can open, as a shared link) and `image_url`
//! (`/api/v1/image/{card_id}/`, SVG or PNG, for the key that made it). Only
//! cards of stored files have them: a card of CSV sent inline was never
//! stored, and both say so, with what to do instead.

use std::sync::Arc;

use axum::extract::State;

use super::extract::{Path, Query};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use serde::Deserialize;
use zdr_chart::Chart;

use super::store::CardRow;
use super::work::{draw_memory, heavy};
use super::{Api, ApiError, Tenant};
use zdr_embed_page::html::{escape, style_hash, Page};

/// Sizes an image may be asked for, in CSS pixels.
const MIN_SIDE: u32 = 200;
const MAX_SIDE: u32 = 2400;

fn never_stored(card_id: &str) -> String {
    format!(
        "There is no stored card {card_id} on this host. Cards made from CSV sent inline to visualize are never stored (zero data retention): show one by posting its visualization_data to /embed/{card_id}/, as the widget does."
    )
}

async fn lookup(api: &Arc<Api>, card_id: &str) -> Result<Option<CardRow>, ApiError> {
    if !super::ids::is_id(card_id) {
        return Ok(None);
    }
    let store = api.store()?;
    let id = card_id.to_owned();
    tokio::task::spawn_blocking(move || store.card(&id))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)
}

#[derive(Deserialize)]
pub struct PictureQuery {
    format: Option<String>,
    width: Option<u32>,
    height: Option<u32>,
    dark_mode: Option<bool>,
}

pub async fn image(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Path(card_id): Path<String>,
    Query(query): Query<PictureQuery>,
) -> Result<Response, ApiError> {
    let card = lookup(&api, &card_id)
        .await?
        .filter(|c| c.tenant == tenant.0)
        .ok_or_else(|| {
            ApiError::CardNotFound(never_stored(&card_id.chars().take(64).collect::<String>()))
        })?;
    let png = match query.format.as_deref() {
        None | Some("svg") => false,
        Some("png") => true,
        Some(_) => return Err(ApiError::invalid("format", "format must be svg or png")),
    };
    let side = |v: Option<u32>, default: u32| v.unwrap_or(default).clamp(MIN_SIDE, MAX_SIDE);
    let (width, height) = (side(query.width, 880), side(query.height, 540));
    let dark = query.dark_mode;
    let memory = draw_memory(card.visualization_data.len());
    let bytes = heavy(&api, memory, move |stop| {
        let chart = Chart::from_json(&card.visualization_data).map_err(ApiError::internal)?;
        stop.check().map_err(|_| ApiError::Deadline(0))?;
        let theme = chart.theme(dark);
        let scene = chart
            .scene(f64::from(width), f64::from(height), &theme, false)
            .map_err(ApiError::internal)?;
        stop.check().map_err(|_| ApiError::Deadline(0))?;
        if png {
            zdr_chart::paint::png::write(&scene, 2.0).map_err(ApiError::internal)
        } else {
            Ok(zdr_chart::paint::svg::write(&scene).into_bytes())
        }
    })
    .await?;
    let mut response = bytes.into_response();
    let kind = if png { "image/png" } else { "image/svg+xml" };
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    Ok(response)
}

/// The card's page: its title, description, chart and source, as HTML
/// that runs no script.
pub async fn page(State(api): State<Arc<Api>>, Path(card_id): Path<String>) -> Response {
    let card = match lookup(&api, &card_id).await {
        Ok(Some(card)) => card,
        Ok(None) => {
            return html(
                StatusCode::NOT_FOUND,
                "No stored card",
                &format!(
                    "<p>{}</p>",
                    escape(&never_stored(&card_id.chars().take(64).collect::<String>()))
                ),
            )
        }
        Err(error) => {
            return html(
                error.status(),
                "Card unavailable",
                &format!("<p>{}</p>", escape(&error.to_string())),
            )
        }
    };
    let (data, memory) = (
        card.visualization_data.clone(),
        draw_memory(card.visualization_data.len()),
    );
    let drawn = heavy(&api, memory, move |_| {
        let chart = Chart::from_json(&data).map_err(ApiError::internal)?;
        let theme = chart.theme(Some(false));
        chart.to_svg(880, 540, &theme).map_err(ApiError::internal)
    })
    .await;
    let svg = match drawn {
        Ok(svg) => svg,
        Err(error) => {
            return html(
                error.status(),
                "Card unavailable",
                &format!("<p>{}</p>", escape(&error.to_string())),
            )
        }
    };
    let body = format!(
        "<h1>{}</h1>\n<p>{}</p>\n<div class=\"chart\">{svg}</div>\n<p class=\"meta\">{} card, made {} from file {}. Embed it: post its visualization_data to <code>/embed/{}/</code>.</p>",
        escape(&card.title),
        escape(&card.description),
        escape(&card.card_type),
        escape(&card.created_at),
        escape(&card.file_id),
        escape(&card.card_id),
    );
    html(StatusCode::OK, &card.title, &body)
}

/// The stylesheet of card pages, allowed by its hash (no inline style
/// else, no script).
const STYLE: &str = "body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:920px;padding:0 1rem;color:#1f2328}h1{font-size:1.5rem}.chart svg{max-width:100%;height:auto}.meta{color:#59636e;font-size:.875rem}";

fn html(status: StatusCode, title: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{}</title>\n<style>{STYLE}</style></head>\n<body>\n{body}\n</body></html>\n",
        escape(title)
    );
    let page = Page {
        html,
        style_hash: style_hash(STYLE),
    };
    (status, page).into_response()
}
