//! `POST /embed/{card_id}/`: the form field in, the chart page out. The
//! errors of the embed addresses, their pages, and the other methods.

use axum::body::Body;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, RawQuery, Request, State};
use axum::http::header::{ALLOW, CONTENT_SECURITY_POLICY, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use zdr_chart::model::DataError;
use zdr_chart::Chart;

use crate::app::Shared;
use crate::form::{read_field, FormError};
use crate::html::{chart_page, error_page, Page, Variant};
use crate::origin::OriginError;
use crate::security::page_policy;

/// The frame shapes the chart is drawn for; the iframe's size picks one.
/// A frame shows its variant scaled to fit, so each is laid out for the
/// proportions it will be seen at: the usual landscape (the widget's
/// default frame is 100% x 600px), a wide strip, a squarer frame, a phone.
const VARIANTS: [(&str, Option<&str>, u32, u32); 4] = [
    ("landscape", None, 880, 540),
    ("wide", Some("(min-aspect-ratio:19/10)"), 820, 400),
    ("square", Some("(max-aspect-ratio:27/20)"), 640, 580),
    ("narrow", Some("(max-width:559.98px)"), 400, 360),
];

pub const MAX_CARD_ID: usize = 128;

/// How much of a refused query value an error message quotes.
const MAX_QUOTED: usize = 60;

/// Why a post could not become a chart, or a GET the postMessage shell.
#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error("the card id must be 1 to {MAX_CARD_ID} characters of A-Z, a-z, 0-9, '_' and '-'")]
    CardId,
    #[error(transparent)]
    Form(#[from] FormError),
    #[error("the dark_mode query parameter must be true or false")]
    DarkMode,
    #[error(
        "A GET on an embed address is the postMessage shell: add ?embed_mode=postmessage&parent_origin=<the embedding page's origin>. Cards with data are POSTed (form field visualization_data)."
    )]
    NoEmbedMode,
    /// The value as [`quoted`] writes it.
    #[error(
        "embed_mode must be postmessage, the one mode a GET serves (form mode POSTs the data instead); found {0}"
    )]
    EmbedMode(String),
    #[error(
        "parent_origin is required: the origin of the page that embeds the card, as its window.location.origin gives it, e.g. &parent_origin=https://app.example.com"
    )]
    NoParentOrigin,
    #[error(
        "parent_origin must be an origin like https://app.example.com (scheme, host and port only, no path or trailing slash): {error}; found {found}"
    )]
    ParentOrigin {
        error: OriginError,
        /// The value as [`quoted`] writes it.
        found: String,
    },
    /// The value as [`quoted`] writes it.
    #[error(
        "height must be auto (the frame follows the chart's height) or left out (the chart fills the frame); found {0}"
    )]
    Height(String),
    #[error(transparent)]
    Data(#[from] DataError),
    #[error("the chart could not be drawn: {0}")]
    Draw(String),
}

impl EmbedError {
    fn status(&self) -> StatusCode {
        match self {
            EmbedError::CardId => StatusCode::NOT_FOUND,
            EmbedError::Form(FormError::TooLarge { .. }) => StatusCode::PAYLOAD_TOO_LARGE,
            EmbedError::Form(FormError::UnsupportedType(_) | FormError::MissingType) => {
                StatusCode::UNSUPPORTED_MEDIA_TYPE
            }
            EmbedError::Form(FormError::Read(_)) => StatusCode::BAD_REQUEST,
            EmbedError::Form(_)
            | EmbedError::DarkMode
            | EmbedError::NoEmbedMode
            | EmbedError::EmbedMode(_)
            | EmbedError::NoParentOrigin
            | EmbedError::ParentOrigin { .. }
            | EmbedError::Height(_)
            | EmbedError::Data(_) => StatusCode::BAD_REQUEST,
            EmbedError::Draw(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn heading(&self) -> &'static str {
        match self {
            EmbedError::CardId => "Unknown card address",
            EmbedError::Form(FormError::TooLarge { .. }) => "The card's data are too large",
            EmbedError::Form(_) => "The post is not a visualization_data form",
            EmbedError::DarkMode => "Bad dark_mode parameter",
            EmbedError::NoEmbedMode => "Not a postMessage shell address",
            EmbedError::EmbedMode(_) => "Unknown embed_mode",
            EmbedError::NoParentOrigin => "Missing parent_origin parameter",
            EmbedError::ParentOrigin { .. } => "Bad parent_origin parameter",
            EmbedError::Height(_) => "Bad height parameter",
            EmbedError::Data(_) => "The card's visualization_data is not valid",
            EmbedError::Draw(_) => "The chart could not be drawn",
        }
    }

    fn hint(&self) -> &'static str {
        match self {
            EmbedError::Data(_) => {
                "The path names where in visualization_data the problem is. The format is described in docs/data-format.md."
            }
            EmbedError::Form(FormError::TooLarge { .. }) => {
                "Send fewer points, or start the host with a larger --body-limit."
            }
            EmbedError::NoEmbedMode
            | EmbedError::EmbedMode(_)
            | EmbedError::NoParentOrigin
            | EmbedError::ParentOrigin { .. }
            | EmbedError::Height(_) => {
                "The widget builds this address itself in its postMessage mode; the protocol is described in docs/postmessage-protocol.md."
            }
            _ => "",
        }
    }
}

/// Sends a page with its own strict policy (no script at all).
pub fn respond(status: StatusCode, page: Page, frame_ancestors: &str) -> Response {
    let policy = page_policy(&page.style_hash, frame_ancestors);
    respond_with_policy(status, page.html, &policy)
}

/// Sends an HTML page with the given Content-Security-Policy.
pub fn respond_with_policy(status: StatusCode, html: String, policy: &str) -> Response {
    let mut response = (status, html).into_response();
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    if let Ok(value) = HeaderValue::from_str(policy) {
        headers.insert(CONTENT_SECURITY_POLICY, value);
    }
    response
}

/// A query value for an error message: at most [`MAX_QUOTED`] characters,
/// in quotes, control characters escaped (the page escapes the HTML).
pub fn quoted(value: &str) -> String {
    let mut chars = value.chars();
    let head: String = chars.by_ref().take(MAX_QUOTED).collect();
    if chars.next().is_some() {
        format!("{head:?}\u{2026}")
    } else {
        format!("{head:?}")
    }
}

pub fn error_response(error: &EmbedError, frame_ancestors: &str) -> Response {
    let status = error.status();
    let page = error_page(
        status.as_u16(),
        error.heading(),
        &error.to_string(),
        error.hint(),
    );
    respond(status, page, frame_ancestors)
}

/// The card id from the address; a segment that does not decode to UTF-8
/// (`%FF`) becomes "", which is no card id, so it gets the 404 page like any
/// other bad id rather than the router's plain-text 400.
pub fn card_id_or_empty(card_id: Result<Path<String>, PathRejection>) -> String {
    card_id.map(|Path(id)| id).unwrap_or_default()
}

pub fn valid_card_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_CARD_ID
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

pub fn dark_mode(query: Option<&str>) -> Result<Option<bool>, EmbedError> {
    let mut dark = None;
    for (name, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        if name == "dark_mode" {
            dark = Some(match value.as_ref() {
                "true" => true,
                "false" => false,
                _ => return Err(EmbedError::DarkMode),
            });
        }
    }
    Ok(dark)
}

/// Reads, checks and draws; all of it CPU work, done off the async workers.
fn draw(text: String, dark: Option<bool>) -> Result<Page, EmbedError> {
    let chart = Chart::from_json(&text)?;
    drop(text);
    let theme = chart.theme(dark);
    let bg = theme.background;
    let mut variants = Vec::with_capacity(VARIANTS.len());
    for (class, media, width, height) in VARIANTS {
        let svg = chart
            .to_svg(width, height, &theme)
            .map_err(|e| EmbedError::Draw(e.to_string()))?;
        variants.push(Variant {
            class,
            media,
            svg: fluid(&svg, &format!("chart {class}"), &chart.config.title),
        });
    }
    let background = format!("#{:02x}{:02x}{:02x}", bg.0, bg.1, bg.2);
    Ok(chart_page(&chart.config.title, &background, &variants))
}

/// Makes plotters' fixed-size `<svg width=.. height=..>` scale with the
/// frame (its viewBox stays), and names it for assistive technology.
fn fluid(svg: &str, class: &str, title: &str) -> String {
    let Some(end) = svg.find('>') else {
        return svg.to_string();
    };
    let (open, rest) = svg.split_at(end);
    let mut attributes = String::new();
    for part in open.trim_start_matches("<svg").split_whitespace() {
        if part.starts_with("width=") || part.starts_with("height=") {
            continue;
        }
        attributes.push(' ');
        attributes.push_str(part);
    }
    format!(
        "<svg{attributes} class=\"{class}\" preserveAspectRatio=\"xMidYMid meet\" role=\"img\" aria-label=\"{}\"{rest}",
        crate::html::escape(title)
    )
}

pub async fn post(
    State(shared): State<Shared>,
    card_id: Result<Path<String>, PathRejection>,
    RawQuery(query): RawQuery,
    request: Request,
) -> Response {
    let frame_ancestors = shared.config.frame_ancestors.clone();
    let card_id = card_id_or_empty(card_id);
    match answer(&shared, &card_id, query.as_deref(), request).await {
        Ok(page) => respond(StatusCode::OK, page, &frame_ancestors),
        Err(error) => error_response(&error, &frame_ancestors),
    }
}

async fn answer(
    shared: &Shared,
    card_id: &str,
    query: Option<&str>,
    request: Request,
) -> Result<Page, EmbedError> {
    if !valid_card_id(card_id) {
        return Err(EmbedError::CardId);
    }
    let dark = dark_mode(query)?;
    let (parts, body): (_, Body) = request.into_parts();
    let text = read_field(&parts.headers, body, shared.config.body_limit).await?;
    tokio::task::spawn_blocking(move || draw(text, dark))
        .await
        .map_err(|e| EmbedError::Draw(e.to_string()))?
}

/// `HEAD` on an embed address: the widget's auto mode asks whether the
/// service is there before trusting the frame's `load` event (which fires for
/// the browser's own error page too). A 2xx keeps the page's console clean.
pub async fn probe() -> StatusCode {
    StatusCode::NO_CONTENT
}

/// Any other method on an embed address.
pub async fn method_not_allowed(State(shared): State<Shared>) -> Response {
    let page = error_page(
        405,
        "Wrong method",
        "An embed address answers POST, with the form field visualization_data; GET, with ?embed_mode=postmessage&parent_origin=<the embedding page's origin>, for the postMessage shell; and HEAD, to say it is there.",
        "",
    );
    let mut response = respond(
        StatusCode::METHOD_NOT_ALLOWED,
        page,
        &shared.config.frame_ancestors,
    );
    response
        .headers_mut()
        .insert(ALLOW, HeaderValue::from_static("GET, POST, HEAD"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_ids_are_one_plain_segment() {
        assert!(valid_card_id("abc_DEF-123"));
        assert!(valid_card_id(&"a".repeat(128)));
        for bad in ["", "a b", "a/b", "..", "é", "a.b", &"a".repeat(129)] {
            assert!(!valid_card_id(bad), "{bad}");
        }
    }

    #[test]
    fn dark_mode_is_true_false_or_absent() {
        assert_eq!(dark_mode(None).ok(), Some(None));
        assert_eq!(dark_mode(Some("dark_mode=true")).ok(), Some(Some(true)));
        assert_eq!(
            dark_mode(Some("x=1&dark_mode=false")).ok(),
            Some(Some(false))
        );
        assert!(dark_mode(Some("dark_mode=yes")).is_err());
    }

    #[test]
    fn quoted_values_are_short_and_visible() {
        assert_eq!(quoted("form"), "\"form\"");
        assert_eq!(quoted("a\n\"b"), "\"a\\n\\\"b\"");
        let long = quoted(&"é".repeat(100));
        assert_eq!(long, format!("\"{}\"\u{2026}", "é".repeat(MAX_QUOTED)));
    }

    #[test]
    fn shell_errors_are_400_with_a_hint() {
        let errors = [
            EmbedError::NoEmbedMode,
            EmbedError::EmbedMode(quoted("form")),
            EmbedError::NoParentOrigin,
            EmbedError::ParentOrigin {
                error: OriginError::Path,
                found: quoted("https://a.example/"),
            },
            EmbedError::Height(quoted("300px")),
        ];
        for error in errors {
            assert_eq!(error.status(), StatusCode::BAD_REQUEST, "{error}");
            assert!(!error.hint().is_empty(), "{error}");
        }
    }

    #[test]
    fn svg_becomes_fluid() {
        let out = fluid(
            "<svg width=\"800\" height=\"500\" viewBox=\"0 0 800 500\" xmlns=\"http://www.w3.org/2000/svg\">\n<rect/></svg>",
            "wide",
            "A <b>",
        );
        assert!(out.starts_with(
            "<svg viewBox=\"0 0 800 500\" xmlns=\"http://www.w3.org/2000/svg\" class=\"wide\""
        ));
        assert!(out.contains("aria-label=\"A &lt;b&gt;\""));
        assert!(!out.contains("width=\"800\""));
    }
}
