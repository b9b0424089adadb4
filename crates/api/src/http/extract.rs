//! The API's extractors. axum's own answer their rejections in plain text
//! (a body past its limit, a query or a path that does not parse); these
//! answer every one with the API's JSON error. A JSON body is read as the
//! embed reads its posts ([`zdr_embed_page::form::read_limited`]): at most
//! `--body-limit` bytes, within `--body-timeout`, its bytes beyond the
//! first `--small-post` taken from the host's body memory and held as long
//! as the body is.

use std::sync::Arc;

use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::header::CONTENT_TYPE;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use tokio::sync::OwnedSemaphorePermit;

use crate::{Api, ApiError};
use zdr_embed_page::form::{media_type, read_limited, BodyRules, FormError};

/// The query string, by serde; a parameter given twice, of the wrong type,
/// or not text is a 400 naming the query.
pub struct Query<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        axum::extract::Query::<T>::try_from_uri(&parts.uri)
            .map(|axum::extract::Query(value)| Query(value))
            .map_err(|rejection| {
                ApiError::invalid(
                    "query",
                    format!(
                        "the query string is not valid: {}",
                        quoted(&rejection.body_text())
                    ),
                )
            })
    }
}

/// The address's parameters; one that is not UTF-8 once percent-decoded
/// is a 400 naming the path.
pub struct Path<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Path<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Path(value)| Path(value))
            .map_err(|rejection| {
                ApiError::invalid(
                    "path",
                    format!(
                        "the address is not valid: {}",
                        quoted(&rejection.body_text())
                    ),
                )
            })
    }
}

/// A framework's message, cut short: it may quote the request.
fn quoted(text: &str) -> String {
    const MAX: usize = 200;
    let mut out: String = text.chars().take(MAX).collect();
    if text.chars().count() > MAX {
        out.push('…');
    }
    out
}

/// A JSON object body (`Content-Type: application/json`, or none), and
/// its share of the host's body memory.
pub struct JsonBody {
    pub object: Map<String, Value>,
    _held: Option<OwnedSemaphorePermit>,
}

/// What a request's body is read by.
pub fn rules(api: &Api, limit: usize) -> BodyRules {
    BodyRules {
        limit,
        timeout: api.lanes.body_timeout,
        free: api.lanes.small_post,
        memory: api.lanes.bodies.clone(),
    }
}

impl From<FormError> for ApiError {
    fn from(error: FormError) -> ApiError {
        match error {
            FormError::TooLarge { limit } => ApiError::TooLarge {
                what: "the request body".into(),
                limit,
            },
            FormError::Busy => ApiError::Busy,
            FormError::TimedOut { seconds } => ApiError::invalid(
                "body",
                format!("the request body did not arrive within {seconds} seconds"),
            ),
            other => ApiError::invalid("body", other.to_string()),
        }
    }
}

/// Is this a JSON content type (or none at all)?
fn is_json(request: &Request) -> Result<(), ApiError> {
    let Some(value) = request.headers().get(CONTENT_TYPE) else {
        return Ok(());
    };
    let text = value.to_str().unwrap_or("");
    let essence = media_type(text);
    if essence == "application/json" || essence.ends_with("+json") {
        Ok(())
    } else {
        Err(ApiError::UnsupportedType(
            format!("the body is {:?}, not JSON", quoted(text)),
            "a JSON object with Content-Type: application/json",
        ))
    }
}

impl FromRequest<Arc<Api>> for JsonBody {
    type Rejection = ApiError;

    async fn from_request(request: Request, api: &Arc<Api>) -> Result<Self, ApiError> {
        is_json(&request)?;
        let (parts, body) = request.into_parts();
        let (bytes, held) =
            read_limited(&parts.headers, body, &rules(api, api.lanes.body_limit)).await?;
        let object = super::read::object(&bytes)?;
        Ok(JsonBody {
            object,
            _held: held,
        })
    }
}
