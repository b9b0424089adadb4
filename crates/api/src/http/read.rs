//! JSON request bodies read member by member, so that every error names the
//! member it is about (`param` in the error body) instead of serde's column.

use serde_json::{Map, Value};

use crate::ApiError;

/// The body as a JSON object, or a 400 that says what it is instead.
pub fn object(bytes: &[u8]) -> Result<Map<String, Value>, ApiError> {
    match serde_json::from_slice(bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ApiError::invalid("body", "the body must be a JSON object")),
        Err(e) => Err(ApiError::invalid(
            "body",
            format!("the body is not JSON: {e}"),
        )),
    }
}

/// A member that is absent or `null` is not given.
pub fn optional<'a>(body: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    body.get(name).filter(|v| !v.is_null())
}

pub fn text(body: &Map<String, Value>, name: &'static str) -> Result<Option<String>, ApiError> {
    match optional(body, name) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(ApiError::invalid(
            name,
            format!("{name} must be a string or null"),
        )),
    }
}

/// `param` names the member for the error; for a nested member it is the
/// top-level one the caller sent.
pub fn flag(
    body: &Map<String, Value>,
    name: &str,
    param: &'static str,
    default: bool,
) -> Result<bool, ApiError> {
    match optional(body, name) {
        None => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(ApiError::invalid(
            param,
            format!("{name} must be true, false or null"),
        )),
    }
}

pub fn string_list(body: &Map<String, Value>, name: &'static str) -> Result<Vec<String>, ApiError> {
    let wrong = || ApiError::invalid(name, format!("{name} must be an array of strings"));
    match optional(body, name) {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| v.as_str().map(str::to_owned).ok_or_else(wrong))
            .collect(),
        Some(_) => Err(wrong()),
    }
}

/// `output_settings` of `visualize` and `knowledge_search`.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // documents what `image_dark_mode` reads
pub(crate) struct OutputSettings {
    knowledge_card_settings: Option<CardSettings>,
}

#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // documents what `image_dark_mode` reads
pub(crate) struct CardSettings {
    /// The cards' `viz_config.dark_mode`, and their previews' theme.
    image_dark_mode: Option<bool>,
}

/// `output_settings.knowledge_card_settings.image_dark_mode` (4.3, 4.5):
/// false when any level is absent or null.
pub fn image_dark_mode(body: &Map<String, Value>) -> Result<bool, ApiError> {
    match optional(body, "output_settings") {
        None => Ok(false),
        Some(Value::Object(settings)) => match optional(settings, "knowledge_card_settings") {
            None => Ok(false),
            Some(Value::Object(card)) => flag(card, "image_dark_mode", "output_settings", false),
            Some(_) => Err(ApiError::invalid(
                "output_settings",
                "output_settings.knowledge_card_settings must be an object",
            )),
        },
        Some(_) => Err(ApiError::invalid(
            "output_settings",
            "output_settings must be an object or null",
        )),
    }
}

/// `image_ttl_minutes`: how long the picture of a card kept nowhere else
/// is kept, 1 to 1,440 minutes; `None` (the default) keeps none.
pub fn image_ttl_minutes(body: &Map<String, Value>) -> Result<Option<u32>, ApiError> {
    use crate::service::previews::MAX_TTL_MINUTES;
    match optional(body, "image_ttl_minutes") {
        None => Ok(None),
        Some(value) => value
            .as_u64()
            .filter(|m| (1..=u64::from(MAX_TTL_MINUTES)).contains(m))
            .and_then(|m| u32::try_from(m).ok())
            .map(Some)
            .ok_or_else(|| {
                ApiError::invalid(
                    "image_ttl_minutes",
                    format!("image_ttl_minutes must be a whole number of minutes from 1 to {MAX_TTL_MINUTES} (a day): how long the picture of a card drawn from data the service does not keep is kept"),
                )
            }),
    }
}

/// A name or title: trimmed, not blank, at most `max` characters; `None`
/// when absent and not `required`.
pub fn name(
    body: &Map<String, Value>,
    member: &'static str,
    max: usize,
    required: bool,
) -> Result<Option<String>, ApiError> {
    match text(body, member)? {
        None if required => Err(ApiError::invalid(
            member,
            format!("{member} is required: a string of 1 to {max} characters"),
        )),
        Some(n) if n.trim().is_empty() => Err(ApiError::invalid(
            member,
            format!("{member} must not be blank"),
        )),
        Some(n) if n.chars().count() > max => Err(ApiError::invalid(
            member,
            format!("{member} is longer than {max} characters"),
        )),
        n => Ok(n.map(|n| n.trim().to_owned())),
    }
}
