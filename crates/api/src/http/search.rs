//! `knowledge_search` (4.3) over HTTP: the question, the indexes by the
//! service's names (and this host's), and the SDK's other members.

use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::{Extension, Json};
use serde_json::{Map, Value};
use zdr_chart::geo::Atlas;

use super::extract::JsonBody;
use super::read::{flag, image_dark_mode, image_ttl_minutes, optional, text};
use crate::model::card::Results;
use crate::model::search::{SearchEffort, SearchRequest, SourceIndex};
use crate::service::search::{self, builtin_indexes, MAX_INDEXES, MAX_QUERY};
use crate::{Api, ApiError, Tenant};

/// The service's names of indexes that are the web, which this host has
/// none of (answered as documented, never refused).
const WEB: [&str; 3] = ["web", "web_pipeline", "tako_llm_hydrate"];

fn index_error(message: impl Into<String>) -> ApiError {
    ApiError::invalid("source_indexes", message)
}

/// A name of `source_indexes`: the service's, a built-in segment's, or a
/// private index's id (checked later against the key's).
fn named(name: &str) -> SourceIndex {
    match name {
        "tako" | "tako_deep_v2" => SourceIndex::Tako,
        "connected_data" => SourceIndex::ConnectedData,
        web if WEB.contains(&web) => SourceIndex::Web(web.to_owned()),
        segment if builtin_indexes().contains(&segment) => SourceIndex::Segment(segment.to_owned()),
        id => SourceIndex::Private(id.to_owned()),
    }
}

/// An entry of `source_indexes`: a name, or `{index_type, segment_id}`, or
/// `{index_type, private_index_id, segment_id?}`.
fn source_index(value: &Value) -> Result<SourceIndex, ApiError> {
    let object = match value {
        Value::String(name) => return Ok(named(name)),
        Value::Object(object) => object,
        _ => {
            return Err(index_error(
                "each entry of source_indexes must be an index's name or an object {\"index_type\", \"segment_id\"} or {\"index_type\", \"private_index_id\"}",
            ))
        }
    };
    let member = |name: &'static str| match optional(object, name) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(index_error(format!(
            "source_indexes[].{name} must be a string"
        ))),
    };
    let index_type = member("index_type")?
        .ok_or_else(|| index_error("an object of source_indexes needs index_type"))?;
    match (
        index_type.as_str(),
        member("private_index_id")?,
        member("segment_id")?,
    ) {
        (_, Some(id), _) => Ok(SourceIndex::Private(id)),
        ("tako" | "tako_deep_v2", None, Some(segment)) => {
            if builtin_indexes().contains(&segment.as_str()) {
                Ok(SourceIndex::Segment(segment))
            } else {
                Err(index_error(format!(
                    "{} is not a segment of the built-in datasets ({})",
                    segment.chars().take(64).collect::<String>(),
                    builtin_indexes().join(", ")
                )))
            }
        }
        ("connected_data", None, Some(segment)) => Ok(SourceIndex::FileSegment(segment)),
        (name, None, _) => Ok(named(name)),
    }
}

fn parse(body: &Map<String, Value>) -> Result<SearchRequest, ApiError> {
    let inputs = match optional(body, "inputs") {
        Some(Value::Object(inputs)) => inputs,
        Some(_) => return Err(ApiError::invalid("inputs", "inputs must be an object")),
        None => {
            return Err(ApiError::invalid(
                "inputs",
                "inputs is required: {\"text\": \"the question\"}",
            ))
        }
    };
    let query = match text(inputs, "text")?.or(text(inputs, "question")?) {
        Some(q) if !q.trim().is_empty() && q.chars().count() <= MAX_QUERY => q,
        Some(q) if !q.trim().is_empty() => {
            return Err(ApiError::invalid(
                "inputs",
                format!("inputs.text is longer than {MAX_QUERY} characters"),
            ))
        }
        _ => {
            return Err(ApiError::invalid(
                "inputs",
                "inputs.text is required: the question to search for",
            ))
        }
    };
    let count = match optional(inputs, "count") {
        None => None,
        Some(n) => Some(n.as_u64().filter(|n| *n >= 1).ok_or_else(|| {
            ApiError::invalid("inputs", "inputs.count must be a whole number from 1")
        })? as usize),
    };
    text(inputs, "current_view")?;
    let files = match optional(inputs, "x_file_source_ids") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| {
                item.get("file_id")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .ok_or_else(|| {
                        ApiError::invalid(
                            "inputs",
                            "each entry of inputs.x_file_source_ids needs file_id",
                        )
                    })
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(ApiError::invalid(
                "inputs",
                "inputs.x_file_source_ids must be an array",
            ))
        }
    };
    let indexes = match optional(body, "source_indexes") {
        None => Vec::new(),
        Some(Value::Array(items)) => items.iter().map(source_index).collect::<Result<_, _>>()?,
        Some(_) => return Err(index_error("source_indexes must be an array or null")),
    };
    if indexes.len() > MAX_INDEXES || files.len() > MAX_INDEXES {
        return Err(index_error(format!(
            "source_indexes names at most {MAX_INDEXES} indexes"
        )));
    }
    let effort = match text(body, "search_effort")? {
        None => None,
        Some(effort) => Some(SearchEffort::parse(&effort).ok_or_else(|| {
            ApiError::invalid(
                "search_effort",
                "search_effort must be fast, medium, deep, auto or null",
            )
        })?),
    };
    text(body, "extra_params")?;
    let country = text(body, "country_code")?.unwrap_or_else(|| "US".into());
    let known = country.len() == 2
        && country.bytes().all(|b| b.is_ascii_alphabetic())
        && zdr_chart::geo::lookup(Atlas::World, &country).is_some();
    if !known {
        return Err(ApiError::invalid(
            "country_code",
            format!(
                "country_code {:?} is not an ISO 3166-1 alpha-2 code of a country",
                country.chars().take(8).collect::<String>()
            ),
        ));
    }
    let tag = text(body, "locale")?.unwrap_or_else(|| "en-US".into());
    let locale = zdr_chart::locale::find(&tag).ok_or_else(|| {
        ApiError::invalid(
            "locale",
            format!(
                "locale {:?} is not one the cards can be written in: {}",
                tag.chars().take(40).collect::<String>(),
                zdr_chart::locale::tags()
            ),
        )
    })?;
    Ok(SearchRequest {
        query,
        count,
        files,
        indexes,
        dark: image_dark_mode(body)?,
        country: country.to_ascii_uppercase(),
        locale: locale.tag(),
        effort,
        thread_id: text(body, "thread_id")?,
        debug: flag(body, "debug", "debug", false)?,
        image_ttl_minutes: image_ttl_minutes(body)?,
    })
}

/// 4.3's body, as `parse` reads it.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // documents the members `parse` reads by name
pub(crate) struct SearchBody {
    inputs: SearchInputs,
    /// In priority order: `tako` (the built-in datasets), a built-in segment, `connected_data`, a private index's id, the web's names (none here), or the objects `{index_type, segment_id}` and `{index_type, private_index_id}`.
    #[schema(value_type = Option<Vec<Object>>)]
    source_indexes: Option<Vec<serde_json::Value>>,
    /// `fast`, `medium`, `deep` or `auto`.
    search_effort: Option<String>,
    /// ISO 3166-1 alpha-2, `US` unless given.
    country_code: Option<String>,
    /// The cards' language, `en-US` unless given.
    locale: Option<String>,
    output_settings: Option<super::read::OutputSettings>,
    thread_id: Option<String>,
    debug: Option<bool>,
    /// Read and checked as visualize reads it; the cards of a search are kept already.
    #[schema(minimum = 1, maximum = 1440)]
    image_ttl_minutes: Option<u32>,
    extra_params: Option<String>,
}

#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // documents the members `parse` reads by name
pub(crate) struct SearchInputs {
    /// The question, at most 2,000 characters.
    text: String,
    /// Cards at most.
    #[schema(minimum = 1)]
    count: Option<u64>,
    current_view: Option<String>,
    /// This key's files to search first: `{file_id}` objects.
    #[schema(value_type = Option<Vec<Object>>)]
    x_file_source_ids: Option<Vec<serde_json::Value>>,
}

/// 4.3 `POST knowledge_search`.
#[utoipa::path(post, path = "/api/v1/knowledge_search", operation_id = "knowledge_search", tag = "search", request_body = SearchBody,
    description = "Cards of the best dataset for a question; no cards (not an error) when nothing is relevant.",
    responses((status = 200, body = Results), (status = 400, body = crate::error::Body), (status = 404, body = crate::error::Body)))]
pub async fn search(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    headers: HeaderMap,
    body: JsonBody,
) -> Result<Json<Results>, ApiError> {
    let request = parse(&body.object)?;
    Ok(Json(
        search::search(&api, &tenant, &api.base_url(&headers), request).await?,
    ))
}
