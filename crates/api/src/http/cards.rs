//! A card's `image_url` (`/api/v1/image/{card_id}/`, PNG or SVG) and
//! `webpage_url` (`/card/{card_id}/`, a page that runs no script). Neither
//! needs a key, as the service's do not: the card's id (96 random bits) is
//! its authority, as a shared link's is; both are `Cache-Control: private`,
//! and both answer 404 once the card's file is deleted. A card kept nowhere
//! answers 410, or its preview while one is kept (`service::previews`).

use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::extract::{Path, Query};
use crate::service::cards::{self, Picture};
use crate::service::previews;
use crate::store::PreviewRow;
use crate::{Api, ApiError};
use zdr_embed_page::html::{escape, style_hash, Page};
use zdr_embed_page::security::Csp;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PictureQuery {
    /// `png` (the default) or `svg`.
    format: Option<String>,
    /// CSS px, 200 to 2,400; 880 unless given.
    width: Option<u32>,
    /// CSS px, 200 to 2,400; 540 unless given.
    height: Option<u32>,
    dark_mode: Option<bool>,
    /// The SDK's; there is no footer here to hide.
    #[allow(dead_code)]
    hide_footer: Option<bool>,
}

/// A card drawn: PNG or SVG bytes, in the document.
pub(crate) struct ImageBytes;

impl utoipa::PartialSchema for ImageBytes {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
            .into()
    }
}

impl utoipa::ToSchema for ImageBytes {}

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
#[utoipa::path(get, path = "/api/v1/image/{card_id}/", operation_id = "get_card_image", tag = "cards", security(()), params(("card_id" = String, Path, description = "A card's id: its authority, as a shared link's is"), PictureQuery),
    description = "A card's image (its `image_url`); no key. A card of inline CSV answers 410 unless its preview is kept (`image_ttl_minutes`).",
    responses((status = 200, description = "The card drawn", content((ImageBytes = "image/png"), (ImageBytes = "image/svg+xml"))), (status = 400, body = crate::error::Body),
        (status = 404, body = crate::error::Body), (status = 410, description = "A card drawn from data the service does not keep", body = crate::error::Body)))]
pub async fn image(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    Path(card_id): Path<String>,
    Query(query): Query<PictureQuery>,
) -> Result<Response, ApiError> {
    let picture = picture(query.format.as_deref(), &headers)?;
    let bytes = match cards::lookup(&api, &card_id).await? {
        Some(card) => {
            let side = |v: Option<u32>, default: u32| v.unwrap_or(default);
            let size = (side(query.width, 880), side(query.height, 540));
            cards::image(&api, card, picture, size, query.dark_mode).await?
        }
        None => preview_picture(&api, &card_id, &query).await?,
    };
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

/// The PNG a preview keeps, as it was drawn: a preview is one picture,
/// not a card to draw again at another size or in SVG.
async fn preview_picture(
    api: &Arc<Api>,
    card_id: &str,
    query: &PictureQuery,
) -> Result<Vec<u8>, ApiError> {
    let preview = previews::find(api, card_id)
        .await?
        .ok_or_else(|| cards::missing(card_id))?;
    let (width, height) = previews::SIZE;
    if query.format.as_deref() == Some("svg")
        || query.width.is_some_and(|w| w != width)
        || query.height.is_some_and(|h| h != height)
    {
        return Err(ApiError::invalid(
            "format",
            format!("card {card_id} is kept only as the PNG of its preview, {width}x{height}: ask for it without format, width and height"),
        ));
    }
    previews::picture(api, preview).await
}

/// `GET /card/{card_id}/`: the card's title, description, chart and
/// source.
#[utoipa::path(get, path = "/card/{card_id}/", operation_id = "get_card_page", tag = "cards", security(()), params(("card_id" = String, Path, description = "A card's id: its authority, as a shared link's is")),
    description = "A card's page (its `webpage_url`), HTML that runs no script; no key.",
    responses((status = 200, description = "The page", content_type = "text/html", body = String), (status = 404, description = "No such card", content_type = "text/html", body = String),
        (status = 410, description = "A card drawn from data the service does not keep, or whose preview has expired", content_type = "text/html", body = String)))]
pub async fn page(State(api): State<Arc<Api>>, Path(card_id): Path<String>) -> Response {
    let card = match cards::lookup(&api, &card_id).await {
        Ok(Some(card)) => card,
        Ok(None) => match previews::find(&api, &card_id).await {
            Ok(Some(preview)) => return preview_page(&preview),
            Ok(None) => return gone(&card_id),
            Err(error) => return failed(error),
        },
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

/// The page of a card with neither a row nor a preview: 410 for a card
/// kept nowhere, 404 for any other id.
fn gone(card_id: &str) -> Response {
    let missing = cards::missing(card_id);
    let title = match missing {
        ApiError::CardNotKept(_) => "A card kept nowhere",
        _ => "No stored card",
    };
    html(
        missing.status(),
        title,
        &format!("<p>{}</p>", escape(&missing.to_string())),
    )
}

/// The page of a card kept nowhere whose preview is kept: its title and
/// picture, and until when.
fn preview_page(preview: &PreviewRow) -> Response {
    let (width, height) = previews::SIZE;
    let body = format!(
        "<h1>{title}</h1>\n<div class=\"chart\"><img src=\"/api/v1/image/{id}/\" width=\"{width}\" height=\"{height}\" alt=\"{title}\"></div>\n<p class=\"meta\">A preview of a card drawn from data this service does not keep: its picture alone is kept, until {until}. Embed the card: post its visualization_data to <code>/embed/{id}/</code>.</p>",
        title = escape(&preview.title),
        id = escape(&preview.card_id),
        until = escape(&preview.expires_at),
    );
    let mut response = html(StatusCode::OK, &preview.title, &body);
    response.extensions_mut().insert(Csp::PageWithPicture {
        style_hash: style_hash(STYLE),
    });
    response
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
const STYLE: &str = "body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:920px;padding:0 1rem;color:#1f2328}h1{font-size:1.5rem}.chart svg,.chart img{max-width:100%;height:auto}.meta{color:#59636e;font-size:.875rem}";

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
