//! The API's one error type and its JSON body, the same for every endpoint:
//!
//! ```json
//! {"error": {"status": 404, "code": "file_not_found", "message": "...", "param": "file_id"},
//!  "error_type": "NOT_FOUND", "error_message": "..."}
//! ```
//!
//! `code` is stable and meant for programs; `message` says what to do;
//! `param` names the request field at fault, when there is one.
//! `error_type` (from the service's documented list) and `error_message`
//! are the service's own members, which its SDKs read.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("this endpoint needs an API key in the X-API-Key header")]
    NoKey,
    #[error("the API key in X-API-Key is not one this service knows")]
    UnknownKey,
    #[error("{message}")]
    Invalid {
        param: &'static str,
        message: String,
    },
    #[error("no file {0} belongs to this API key")]
    FileNotFound(String),
    #[error("no private index {0} belongs to this API key")]
    IndexNotFound(String),
    /// As [`ApiError::IndexNotFound`], for `connected_private_index_id`.
    #[error("no private index {0} belongs to this API key (connected_private_index_id)")]
    ConnectedIndexNotFound(String),
    #[error("no thread {0} belongs to this API key")]
    ThreadNotFound(String),
    /// The whole message: what is missing and why.
    #[error("{0}")]
    CardNotFound(String),
    /// A card drawn from data the service does not keep: the whole message.
    #[error("{0}")]
    CardNotKept(String),
    #[error("there is nothing at this address of the API; see the service's documentation for its paths")]
    NotFound,
    #[error("this address of the API does not answer this method")]
    MethodNotAllowed,
    #[error("the upload was refused: {0}")]
    UploadRefused(String),
    #[error("{what} is larger than the limit of {limit} bytes")]
    TooLarge { what: String, limit: usize },
    #[error("the file could not be read: {0}")]
    Unreadable(String),
    #[error("the API is not available on this host: {0}")]
    Unavailable(String),
    /// The whole message: what is in conflict and what to do.
    #[error("{0}")]
    Conflict(String),
    #[error("{0}; send {1}")]
    UnsupportedType(String, &'static str),
    #[error("this API key has made more requests than this host allows ({0}); try again after the Retry-After seconds")]
    RateLimited(String, u64),
    #[error("the host is doing as much heavy work (reading files, drawing cards) as it can; try again in a moment")]
    Busy,
    #[error("the work took longer than this host allows ({0} ms) and was stopped; try again, or with less data")]
    Deadline(u128),
    /// The cause is in the host's log under this request id.
    #[error("the request could not be completed (request id {0})")]
    Internal(String),
}

impl ApiError {
    pub fn invalid(param: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::Invalid {
            param,
            message: message.into(),
        }
    }

    /// Logs `cause` under a new request id and answers with that id only.
    pub fn internal(cause: impl std::fmt::Display) -> ApiError {
        let id = crate::ids::new_id("req");
        tracing::error!(request_id = %id, "api: {cause}");
        ApiError::Internal(id)
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::NoKey | ApiError::UnknownKey => StatusCode::UNAUTHORIZED,
            ApiError::Invalid { .. } => StatusCode::BAD_REQUEST,
            ApiError::FileNotFound(_)
            | ApiError::IndexNotFound(_)
            | ApiError::ConnectedIndexNotFound(_)
            | ApiError::ThreadNotFound(_)
            | ApiError::CardNotFound(_)
            | ApiError::NotFound => StatusCode::NOT_FOUND,
            ApiError::CardNotKept(_) => StatusCode::GONE,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::UploadRefused(_) => StatusCode::FORBIDDEN,
            ApiError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Unreadable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Unavailable(_) | ApiError::Busy | ApiError::Deadline(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::UnsupportedType(..) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::RateLimited(..) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::NoKey => "missing_api_key",
            ApiError::UnknownKey => "unknown_api_key",
            ApiError::Invalid { .. } => "invalid_request",
            ApiError::FileNotFound(_) => "file_not_found",
            ApiError::IndexNotFound(_) | ApiError::ConnectedIndexNotFound(_) => {
                "private_index_not_found"
            }
            ApiError::ThreadNotFound(_) => "thread_not_found",
            ApiError::CardNotFound(_) => "card_not_found",
            ApiError::CardNotKept(_) => "card_not_kept",
            ApiError::NotFound => "not_found",
            ApiError::MethodNotAllowed => "method_not_allowed",
            ApiError::UploadRefused(_) => "upload_refused",
            ApiError::TooLarge { .. } => "too_large",
            ApiError::Unreadable(_) => "unreadable_file",
            ApiError::Unavailable(_) => "unavailable",
            ApiError::Conflict(_) => "conflict",
            ApiError::UnsupportedType(..) => "unsupported_media_type",
            ApiError::RateLimited(..) => "rate_limited",
            ApiError::Busy => "busy",
            ApiError::Deadline(_) => "deadline",
            ApiError::Internal(_) => "internal_error",
        }
    }

    fn param(&self) -> Option<&'static str> {
        match self {
            ApiError::Invalid { param, .. } => Some(param),
            ApiError::FileNotFound(_) => Some("file_id"),
            ApiError::IndexNotFound(_) => Some("id"),
            ApiError::ConnectedIndexNotFound(_) => Some("connected_private_index_id"),
            ApiError::ThreadNotFound(_) => Some("thread_id"),
            ApiError::NoKey | ApiError::UnknownKey => Some("X-API-Key"),
            ApiError::UnsupportedType(..) => Some("Content-Type"),
            _ => None,
        }
    }

    /// Seconds a client should wait before it tries again, for the answers
    /// that say to.
    fn retry_after(&self) -> Option<u64> {
        match self {
            ApiError::RateLimited(_, seconds) => Some(*seconds),
            // As the embed's answers say.
            ApiError::Busy => Some(1),
            ApiError::Deadline(_) => Some(5),
            _ => None,
        }
    }

    /// The error body alone (status, code and message), for a status that
    /// came from elsewhere: the framework, a panic, a layer.
    pub fn body(status: StatusCode, code: &str, message: &str) -> Response {
        (status, Json(Body::of(status, code, message, None))).into_response()
    }
}

/// The service's `error_type` of a status (its documented list:
/// BAD_REQUEST, AUTHENTICATION_ERROR, FORBIDDEN, NOT_FOUND,
/// REQUEST_TIMEOUT, RATE_LIMIT_EXCEEDED, PAYMENT_REQUIRED,
/// INTERNAL_SERVER_ERROR, SERVICE_UNAVAILABLE,
/// RELEVANT_RESULTS_NOT_FOUND; the last two this host never needs: a
/// search that finds nothing answers 200 with no cards).
pub fn error_type(status: StatusCode) -> &'static str {
    match status.as_u16() {
        401 => "AUTHENTICATION_ERROR",
        403 => "FORBIDDEN",
        404 => "NOT_FOUND",
        408 => "REQUEST_TIMEOUT",
        429 => "RATE_LIMIT_EXCEEDED",
        402 => "PAYMENT_REQUIRED",
        503 => "SERVICE_UNAVAILABLE",
        500..=599 => "INTERNAL_SERVER_ERROR",
        _ => "BAD_REQUEST",
    }
}

/// The body every error answers with.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = Error)]
pub(crate) struct Body<'a> {
    error: Inner<'a>,
    /// The service's kind of error: BAD_REQUEST, AUTHENTICATION_ERROR, FORBIDDEN, NOT_FOUND, RATE_LIMIT_EXCEEDED, INTERNAL_SERVER_ERROR, SERVICE_UNAVAILABLE.
    error_type: &'static str,
    /// `error.message`, where the service's SDK reads it.
    error_message: &'a str,
}

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = ErrorDetail)]
struct Inner<'a> {
    /// The HTTP status, again.
    status: u16,
    /// What went wrong, for a program: `invalid_request`, `missing_api_key`, `unknown_api_key`, `file_not_found`, `private_index_not_found`, `thread_not_found`, `card_not_found`, `card_not_kept`, `not_found`, `method_not_allowed`, `upload_refused`, `too_large`, `unreadable_file`, `unavailable`, `conflict`, `unsupported_media_type`, `rate_limited`, `busy`, `deadline`, `internal_error`.
    code: &'a str,
    /// What went wrong and what to do, for a person.
    message: &'a str,
    /// The request's member or parameter at fault, when there is one.
    param: Option<&'a str>,
}

impl<'a> Body<'a> {
    fn of(status: StatusCode, code: &'a str, message: &'a str, param: Option<&'a str>) -> Body<'a> {
        Body {
            error: Inner {
                status: status.as_u16(),
                code,
                message,
                param,
            },
            error_type: error_type(status),
            error_message: message,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = self.to_string();
        let body = Body::of(status, self.code(), &message, self.param());
        let mut response = (status, Json(body)).into_response();
        if status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                axum::http::header::WWW_AUTHENTICATE,
                axum::http::HeaderValue::from_static("X-API-Key"),
            );
        }
        if let Some(seconds) = self.retry_after() {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        if matches!(
            self,
            ApiError::TooLarge { .. }
                | ApiError::RateLimited(..)
                | ApiError::Busy
                | ApiError::Deadline(_)
        ) {
            response
                .extensions_mut()
                .insert(zdr_embed_page::error::Refusal(self.code()));
        }
        response
    }
}
