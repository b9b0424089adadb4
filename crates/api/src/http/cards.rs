//! A card's `image_url` (`/api/v1/image/{card_id}/`, PNG or SVG) and
//! `webpage_url` (`/card/{card_id}/`, a page that runs no script). Neither
//! needs a key, as the service's do not: the card's id (96 random bits) is
//! its authority, as a shared link's is; both are `Cache-Control: private`,
//! and both answer 404 once the card's file is deleted.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::extract::{Path, Query};
use crate::service::cards::{self, Picture};
use crate::{Api, ApiError};
use zdr_embed_page::html::{escape, style_hash, Page};

#[derive(Deserialize)]
pub struct PictureQuery {
    format: Option<String>,
    width: Option<u32>,
    height: Option<u32>,
    dark_mode: Option<bool>,
    /// The SDK's; there is no footer here to hide.
    #[allow(dead_code)]
    hide_footer: Option<bool>,
}

/// PNG unless `format=svg`, or a client that takes SVG and not PNG.
fn picture(format: Option<&str>, headers: &HeaderMap) -> Result<Picture, ApiError> {
    match format {
        Some("png") => Ok(Picture::Png),
        Some("svg") => Ok(Picture::Svg),
        Some(_) => Err(ApiError::invalid("format", "format must be png or svg")),
        None => {
            let accept = headers
                .get(header::ACCEPT)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            let svg_only = accept.contains("image/svg+xml")
                && !accept.contains("image/png")
                && !accept.contains("image/*")
                && !accept.contains("*/*");
            Ok(if svg_only { Picture::Svg } else { Picture::Png })
        }
    }
}

fn private(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("private"));
    response
}

/// `GET /api/v1/image/{card_id}/`.
pub async fn image(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    Path(card_id): Path<String>,
    Query(query): Query<PictureQuery>,
) -> Result<Response, ApiError> {
    let picture = picture(query.format.as_deref(), &headers)?;
    let card = cards::lookup(&api, &card_id)
        .await?
        .ok_or_else(|| cards::missing(&card_id))?;
    let side = |v: Option<u32>, default: u32| v.unwrap_or(default);
    let size = (side(query.width, 880), side(query.height, 540));
    let bytes = cards::image(&api, card, picture, size, query.dark_mode).await?;
    let mut response = bytes.into_response();
    let kind = match picture {
        Picture::Png => "image/png",
        Picture::Svg => "image/svg+xml",
    };
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    Ok(private(response))
}

/// `GET /card/{card_id}/`: the card's title, description, chart and
/// source.
pub async fn page(State(api): State<Arc<Api>>, Path(card_id): Path<String>) -> Response {
    let card = match cards::lookup(&api, &card_id).await {
        Ok(Some(card)) => card,
        Ok(None) => {
            let missing = cards::missing(&card_id);
            let title = match missing {
                ApiError::CardNotKept(_) => "A card kept nowhere",
                _ => "No stored card",
            };
            return html(
                missing.status(),
                title,
                &format!("<p>{}</p>", escape(&missing.to_string())),
            );
        }
        Err(error) => return failed(error),
    };
    let svg = match cards::page_svg(&api, &card).await {
        Ok(svg) => svg,
        Err(error) => return failed(error),
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

fn failed(error: ApiError) -> Response {
    html(
        error.status(),
        "Card unavailable",
        &format!("<p>{}</p>", escape(&error.to_string())),
    )
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
    private((status, page).into_response())
}
