//! The one error type of the handlers: each error is a status, a readable
//! page, and nothing internal. Causes that are the host's own (a drawing
//! that failed, a panicked task) are logged with the request id by the
//! handler; the page only shows that id.

use axum::http::header::{ALLOW, RETRY_AFTER};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use zdr_chart::model::DataError;

use crate::form::FormError;
use crate::html::error_page;
use crate::origin::OriginError;

pub use crate::ids::MAX_CARD_ID;

/// How much of a refused query value an error message quotes.
const MAX_QUOTED: usize = 60;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("There is nothing at this address. Cards are posted to /embed/{{card_id}}/.")]
    NotFound,
    #[error("An embed address answers POST, with the form field visualization_data; GET, with ?embed_mode=postmessage&parent_origin=<the embedding page's origin>, for the postMessage shell; and HEAD, to say it is there.")]
    MethodNotAllowed,
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
    /// The origin as [`quoted`] writes it.
    #[error("this service does not serve charts to pages of {0}; its operator lists the origins it serves (--parent-origins, --frame-ancestors)")]
    ParentNotAllowed(String),
    /// The value as [`quoted`] writes it.
    #[error(
        "height must be auto (the frame follows the chart's height) or left out (the chart fills the frame); found {0}"
    )]
    Height(String),
    #[error(transparent)]
    Data(#[from] DataError),
    #[error("the service is drawing as many charts as it can; try again in a moment")]
    Busy,
    #[error("the chart took longer to draw than this service allows ({0} ms)")]
    Deadline(u128),
    /// The cause is in the host's log under this request id.
    #[error("the chart could not be drawn (request id {0})")]
    Draw(String),
}

/// Why a request was turned away for the host's own limits (the body's
/// size or pace, the admission, the rate, the deadline), carried in the
/// answer's extensions for `/metrics`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal(pub &'static str);

impl AppError {
    /// The limit that turned the request away, if one did.
    pub fn refusal(&self) -> Option<Refusal> {
        Some(Refusal(match self {
            AppError::Form(FormError::TooLarge { .. }) => "too_large",
            AppError::Form(FormError::TimedOut { .. }) => "body_timeout",
            AppError::Form(FormError::Busy) | AppError::Busy => "busy",
            AppError::Deadline(_) => "deadline",
            _ => return None,
        }))
    }

    pub fn status(&self) -> StatusCode {
        match self {
            AppError::NotFound | AppError::CardId => StatusCode::NOT_FOUND,
            AppError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            AppError::Form(FormError::TooLarge { .. }) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::Form(FormError::UnsupportedType(_) | FormError::MissingType) => {
                StatusCode::UNSUPPORTED_MEDIA_TYPE
            }
            AppError::Form(FormError::TimedOut { .. }) => StatusCode::REQUEST_TIMEOUT,
            AppError::Form(FormError::Busy) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::ParentNotAllowed(_) => StatusCode::FORBIDDEN,
            AppError::Form(_)
            | AppError::DarkMode
            | AppError::NoEmbedMode
            | AppError::EmbedMode(_)
            | AppError::NoParentOrigin
            | AppError::ParentOrigin { .. }
            | AppError::Height(_)
            | AppError::Data(_) => StatusCode::BAD_REQUEST,
            AppError::Busy | AppError::Deadline(_) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Draw(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn heading(&self) -> &'static str {
        match self {
            AppError::NotFound => "Not found",
            AppError::MethodNotAllowed => "Wrong method",
            AppError::CardId => "Unknown card address",
            AppError::Form(FormError::TooLarge { .. }) => "The card's data are too large",
            AppError::Form(FormError::TimedOut { .. }) => "The post arrived too slowly",
            AppError::Form(FormError::Busy) => "The service is busy",
            AppError::Form(_) => "The post is not a visualization_data form",
            AppError::DarkMode => "Bad dark_mode parameter",
            AppError::NoEmbedMode => "Not a postMessage shell address",
            AppError::EmbedMode(_) => "Unknown embed_mode",
            AppError::NoParentOrigin => "Missing parent_origin parameter",
            AppError::ParentOrigin { .. } => "Bad parent_origin parameter",
            AppError::ParentNotAllowed(_) => "This page may not embed the chart",
            AppError::Height(_) => "Bad height parameter",
            AppError::Data(_) => "The card's visualization_data is not valid",
            AppError::Busy => "The service is busy",
            AppError::Deadline(_) => "The chart took too long to draw",
            AppError::Draw(_) => "The chart could not be drawn",
        }
    }

    fn hint(&self) -> &'static str {
        match self {
            AppError::Data(_) => {
                "The path names where in visualization_data the problem is. The format is described in docs/data-format.md."
            }
            AppError::Form(FormError::TooLarge { .. }) => {
                "Send fewer points, or start the host with a larger --body-limit."
            }
            AppError::NoEmbedMode
            | AppError::EmbedMode(_)
            | AppError::NoParentOrigin
            | AppError::ParentOrigin { .. }
            | AppError::Height(_) => {
                "The widget builds this address itself in its postMessage mode; the protocol is described in docs/postmessage-protocol.md."
            }
            AppError::Busy | AppError::Deadline(_) | AppError::Form(FormError::Busy) => {
                "Try again in a moment; a card with fewer points draws faster."
            }
            _ => "",
        }
    }

    /// Seconds a client should wait before posting again.
    fn retry_after(&self) -> Option<&'static str> {
        match self {
            AppError::Busy | AppError::Form(FormError::Busy) => Some("1"),
            AppError::Deadline(_) => Some("5"),
            _ => None,
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        let page = error_page(
            status.as_u16(),
            self.heading(),
            &self.to_string(),
            self.hint(),
        );
        let mut response = (status, page).into_response();
        let headers = response.headers_mut();
        if let Some(seconds) = self.retry_after() {
            headers.insert(RETRY_AFTER, HeaderValue::from_static(seconds));
        }
        if matches!(self, AppError::MethodNotAllowed) {
            headers.insert(ALLOW, HeaderValue::from_static("GET, POST, HEAD"));
        }
        if let Some(refusal) = self.refusal() {
            response.extensions_mut().insert(refusal);
        }
        response
    }
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

#[cfg(test)]
mod tests {
    use super::*;

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
            AppError::NoEmbedMode,
            AppError::EmbedMode(quoted("form")),
            AppError::NoParentOrigin,
            AppError::ParentOrigin {
                error: OriginError::Path,
                found: quoted("https://a.example/"),
            },
            AppError::Height(quoted("300px")),
        ];
        for error in errors {
            assert_eq!(error.status(), StatusCode::BAD_REQUEST, "{error}");
            assert!(!error.hint().is_empty(), "{error}");
        }
    }

    #[test]
    fn overload_says_when_to_come_back() {
        for error in [AppError::Busy, AppError::Deadline(10)] {
            let response = error.into_response();
            assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert!(response.headers().contains_key(RETRY_AFTER));
        }
    }
}
