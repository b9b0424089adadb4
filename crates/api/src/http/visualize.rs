//! `visualize` (4.5), `visualize_saved_view` (4.6) and this host's way to
//! make and list saved views, over HTTP.

use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::{Extension, Json};
use serde_json::{Map, Value};
use zdr_chart::model::CardKind;

use super::extract::JsonBody;
use super::read::{flag, image_dark_mode, image_ttl_minutes, optional, string_list, text};
use crate::ids::is_id;
use crate::model::card::Results;
use crate::model::view::{NewSavedView, SavedView};
use crate::model::visualize::{FileRef, SavedViewRequest, VisualizeRequest};
use crate::model::List;
use crate::service::views;
use crate::service::visualize::{self, MAX_TABLES, MODELS};
use crate::{Api, ApiError, Tenant};

/// Card types the service's SDK names that this host does not draw yet.
const NOT_YET: [&str; 6] = [
    "area_timeseries",
    "stacked_area_timeseries",
    "map",
    "bubble_map",
    "treemap",
    "top_level_metric",
];

const MAX_VIEW_NAME: usize = 200;
const MAX_VIEW_COLUMNS: usize = 10;

fn kind(body: &Map<String, Value>) -> Result<Option<CardKind>, ApiError> {
    let Some(name) = text(body, "viz_component_type")? else {
        return Ok(None);
    };
    if let Some(kind) = CardKind::from_name(&name) {
        return Ok(Some(kind));
    }
    let message = if NOT_YET.contains(&name.as_str()) {
        format!(
            "viz_component_type {name} is a card type of the service that this host does not draw yet; it draws {}",
            CardKind::list()
        )
    } else {
        format!("viz_component_type must be one of {}", CardKind::list())
    };
    Err(ApiError::invalid("viz_component_type", message))
}

fn file_ids_error() -> ApiError {
    ApiError::invalid(
        "file_ids",
        "file_ids must be an array of file ids, or of objects {\"file_id\": …, \"file_context\"?, \"ontology_context\"?, \"private_index_id\"?, \"segment_id\"?}",
    )
}

/// An entry of `file_ids`: a string, or the SDK's object form.
fn file_ref(value: &Value) -> Result<FileRef, ApiError> {
    let wrong = file_ids_error;
    match value {
        Value::String(id) => Ok(FileRef {
            file_id: id.clone(),
            file_context: None,
            private_index_id: None,
            segment_id: None,
        }),
        Value::Object(object) => {
            let member = |name: &'static str| -> Result<Option<String>, ApiError> {
                match optional(object, name) {
                    None => Ok(None),
                    Some(Value::String(s)) => Ok(Some(s.clone())),
                    Some(_) => Err(wrong()),
                }
            };
            member("ontology_context")?;
            Ok(FileRef {
                file_id: member("file_id")?.ok_or_else(wrong)?,
                file_context: member("file_context")?,
                private_index_id: member("private_index_id")?,
                segment_id: member("segment_id")?,
            })
        }
        _ => Err(wrong()),
    }
}

fn parse(body: &Map<String, Value>) -> Result<VisualizeRequest, ApiError> {
    let csv = string_list(body, "csv")?;
    let mut files = match optional(body, "file_ids") {
        None => Vec::new(),
        Some(Value::Array(items)) => items.iter().map(file_ref).collect::<Result<_, _>>()?,
        Some(_) => return Err(file_ids_error()),
    };
    // Deprecated, still read: the same as one entry of file_ids.
    if let Some(id) = text(body, "file_id")? {
        if !files.iter().any(|f| f.file_id == id) {
            files.insert(0, file_ref(&Value::String(id))?);
        }
    }
    if csv.is_empty() && files.is_empty() {
        return Err(ApiError::invalid(
            "csv",
            "send csv (CSV texts) or file_ids (files uploaded or connected before)",
        ));
    }
    if csv.len() + files.len() > MAX_TABLES {
        return Err(ApiError::invalid(
            "file_ids",
            format!("at most {MAX_TABLES} tables (csv and file_ids together) per request"),
        ));
    }
    if let Some(model) = text(body, "model")? {
        if !MODELS.contains(&model.as_str()) {
            return Err(ApiError::invalid(
                "model",
                format!("model must be one of {}", MODELS.join(", ")),
            ));
        }
    }
    for name in ["segment_id", "extra_params"] {
        text(body, name)?;
    }
    // The index a file object names is checked as connected_private_index_id is.
    let index = text(body, "connected_private_index_id")?
        .or_else(|| files.iter().find_map(|f| f.private_index_id.clone()));
    let query = text(body, "query")?;
    if query
        .as_ref()
        .is_some_and(|q| q.chars().count() > crate::service::search::MAX_QUERY)
    {
        return Err(ApiError::invalid(
            "query",
            format!(
                "query is longer than {} characters",
                crate::service::search::MAX_QUERY
            ),
        ));
    }
    Ok(VisualizeRequest {
        csv,
        files,
        query,
        kind: kind(body)?,
        dark: image_dark_mode(body)?,
        debug: flag(body, "debug", "debug", false)?,
        thread_id: text(body, "thread_id")?,
        index,
        image_ttl_minutes: image_ttl_minutes(body)?,
    })
}

/// 4.5's body, as `parse` reads it.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // documents the members `parse` reads by name
pub(crate) struct VisualizeBody {
    /// CSV texts, each at most 100 KB, read in memory and never stored.
    csv: Option<Vec<String>>,
    /// Files uploaded or connected before; with `csv`, at most 10 tables.
    file_ids: Option<Vec<FileIdEntry>>,
    /// Deprecated: one more entry of `file_ids`.
    #[schema(deprecated)]
    file_id: Option<String>,
    /// A question, at most 2,000 characters.
    query: Option<String>,
    /// Only this card type: one of the 19 (`bar`, `timeseries`, `pie`, …).
    viz_component_type: Option<String>,
    /// One of the service's models; checked, none runs here.
    model: Option<String>,
    output_settings: Option<super::read::OutputSettings>,
    /// Adds `outputs.debug`: how the question was read.
    debug: Option<bool>,
    /// A thread of this key to continue.
    thread_id: Option<String>,
    /// A private index of this key.
    connected_private_index_id: Option<String>,
    /// Keep the picture (PNG, never the data) of each card of inline CSV this many minutes, so its image_url and webpage_url answer.
    #[schema(minimum = 1, maximum = 1440)]
    image_ttl_minutes: Option<u32>,
    segment_id: Option<String>,
    extra_params: Option<String>,
}

/// An entry of `file_ids`: a file id, or the SDK's object.
#[derive(serde::Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
#[allow(dead_code)] // documents what `file_ref` reads
pub(crate) enum FileIdEntry {
    Id(String),
    Object(FileIdObject),
}

#[derive(serde::Deserialize, utoipa::ToSchema)]
#[allow(dead_code)] // documents what `file_ref` reads
pub(crate) struct FileIdObject {
    file_id: String,
    file_context: Option<String>,
    ontology_context: Option<String>,
    private_index_id: Option<String>,
    segment_id: Option<String>,
}

/// 4.5 `POST visualize`.
#[utoipa::path(post, path = "/api/v1/beta/visualize", operation_id = "visualize", tag = "visualize", request_body = VisualizeBody,
    responses((status = 200, body = Results), (status = 400, body = crate::error::Body), (status = 404, description = "A file, index or thread of another key, or none", body = crate::error::Body),
        (status = 413, body = crate::error::Body), (status = 422, body = crate::error::Body)))]
pub async fn visualize(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    headers: HeaderMap,
    body: JsonBody,
) -> Result<Json<Results>, ApiError> {
    let request = parse(&body.object)?;
    Ok(Json(
        visualize::visualize(&api, &tenant, &api.base_url(&headers), request).await?,
    ))
}

fn checked_id(body: &Map<String, Value>, name: &'static str) -> Result<Option<String>, ApiError> {
    match text(body, name)? {
        Some(id) if !is_id(&id) => Err(ApiError::invalid(
            name,
            format!("{name} must be 1 to 64 letters, digits, '_' or '-'"),
        )),
        id => Ok(id),
    }
}

/// `POST saved_views`'s body.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // documents the members `create_view` reads by name
pub(crate) struct NewViewBody {
    name: String,
    /// The card type the view draws.
    viz_component_type: String,
    /// The schema it applies to; or `file_id`, for that file's schema.
    schema_id: Option<String>,
    file_id: Option<String>,
    /// The columns to draw, the values first; at most 10.
    columns: Option<Vec<String>>,
    /// Unique per key.
    saved_view_reference_id: Option<String>,
}

/// `POST saved_views`: `name`, `viz_component_type`, the schema
/// (`schema_id`, or `file_id` for the schema of that file), `columns`
/// (optional, the columns to draw, first the values) and
/// `saved_view_reference_id` (optional, unique per key).
#[utoipa::path(post, path = "/api/v1/beta/saved_views", operation_id = "create_saved_view", tag = "saved views", request_body = NewViewBody,
    responses((status = 200, body = SavedView), (status = 400, body = crate::error::Body), (status = 404, body = crate::error::Body), (status = 409, description = "The reference id is taken", body = crate::error::Body)))]
pub async fn create_view(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    body: JsonBody,
) -> Result<Json<SavedView>, ApiError> {
    let body = &body.object;
    let name = super::read::name(body, "name", MAX_VIEW_NAME, true)?.unwrap_or_default();
    let card_type = kind(body)?
        .ok_or_else(|| {
            ApiError::invalid(
                "viz_component_type",
                "viz_component_type is required: the card type the view draws",
            )
        })?
        .as_str();
    let columns = string_list(body, "columns")?;
    if columns.len() > MAX_VIEW_COLUMNS || columns.iter().any(|c| c.trim().is_empty()) {
        return Err(ApiError::invalid(
            "columns",
            format!("columns must be 1 to {MAX_VIEW_COLUMNS} column names"),
        ));
    }
    let new = NewSavedView {
        name,
        card_type,
        schema_id: checked_id(body, "schema_id")?,
        file_id: checked_id(body, "file_id")?,
        columns,
        reference_id: checked_id(body, "saved_view_reference_id")?,
    };
    Ok(Json(views::create(&api, &tenant, new).await?))
}

/// `GET saved_views`: the key's views, oldest first.
#[utoipa::path(get, path = "/api/v1/beta/saved_views", operation_id = "list_saved_views", tag = "saved views", responses((status = 200, body = List<SavedView>)))]
pub async fn views(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
) -> Result<Json<List<SavedView>>, ApiError> {
    Ok(Json(views::list(&api, &tenant).await?))
}

/// 4.6's body.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // documents the members `apply_views` reads by name
pub(crate) struct ApplyViewsBody {
    file_ids: Option<Vec<String>>,
    file_id: Option<String>,
    file_source: Option<FileIdObject>,
    saved_view_id: Option<String>,
    saved_view_reference_id: Option<String>,
    segment_id: Option<String>,
    debug: Option<bool>,
}

/// 4.6 `POST visualize_saved_view`.
#[utoipa::path(post, path = "/api/v1/beta/visualize_saved_view", operation_id = "visualize_saved_view", tag = "saved views", request_body = ApplyViewsBody,
    responses((status = 200, body = Results), (status = 400, body = crate::error::Body), (status = 404, body = crate::error::Body)))]
pub async fn apply_views(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    headers: HeaderMap,
    body: JsonBody,
) -> Result<Json<Results>, ApiError> {
    let body = &body.object;
    let mut files = string_list(body, "file_ids")?;
    if let Some(id) = text(body, "file_id")? {
        if !files.contains(&id) {
            files.insert(0, id);
        }
    }
    match optional(body, "file_source") {
        None => {}
        Some(Value::Object(source)) => {
            for member in [
                "file_id",
                "file_context",
                "ontology_context",
                "segment_id",
                "private_index_id",
            ] {
                if source
                    .get(member)
                    .is_some_and(|v| !v.is_string() && !v.is_null())
                {
                    return Err(ApiError::invalid(
                        "file_source",
                        format!("file_source.{member} must be a string"),
                    ));
                }
            }
            if let Some(id) = source.get("file_id").and_then(Value::as_str) {
                if !files.iter().any(|f| f == id) {
                    files.push(id.to_owned());
                }
            }
        }
        Some(_) => {
            return Err(ApiError::invalid(
                "file_source",
                "file_source must be an object or null",
            ))
        }
    }
    if files.is_empty() {
        return Err(ApiError::invalid(
            "file_ids",
            "send file_id, file_ids or file_source.file_id: the datasets to apply saved views to",
        ));
    }
    if files.len() > MAX_TABLES {
        return Err(ApiError::invalid(
            "file_ids",
            format!("at most {MAX_TABLES} files per request"),
        ));
    }
    text(body, "segment_id")?;
    let request = SavedViewRequest {
        files,
        view_id: checked_id(body, "saved_view_id")?,
        reference_id: checked_id(body, "saved_view_reference_id")?,
        debug: flag(body, "debug", "debug", false)?,
    };
    Ok(Json(
        views::apply(&api, &tenant, &api.base_url(&headers), request).await?,
    ))
}
