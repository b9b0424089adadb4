//! Saved views (spec 4.6): a stored chart recipe for a schema, which card
//! type and which columns, applied to datasets of that schema by
//! `POST /api/v1/beta/visualize_saved_view`.
//!
//! The spec shows no way to make one; this host's is
//! `POST /api/v1/beta/saved_views` (keyed like every endpoint, a view
//! belongs to its key), and `GET` lists them. A view's `columns` are named
//! to the recommender as a query names them (`visualize`'s rules), so a
//! view of `["sales", "region"]` and `bar` draws sales by region.

use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::{Extension, Json};
use serde_json::{json, Map, Value};
use zdr_chart::model::CardKind;

use super::body::{flag, optional, string_list, text};
use super::ids::{is_id, new_id, now_rfc3339};
use super::store::ViewRow;
use super::{blocking, Api, ApiError, Tenant};

/// Views a key keeps at most.
pub const MAX_VIEWS: i64 = 1_000;
const MAX_NAME: usize = 200;
const MAX_COLUMNS: usize = 10;

fn view_object(row: &ViewRow) -> Value {
    json!({
        "saved_view_id": row.view_id,
        "saved_view_reference_id": row.reference_id,
        "schema_id": row.schema_id,
        "name": row.name,
        "viz_component_type": row.card_type,
        "query": row.query,
        "created_at": row.created_at,
    })
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

/// `POST /api/v1/beta/saved_views`: `name`, `viz_component_type`, the
/// schema (`schema_id`, or `file_id` for the schema of that file),
/// `columns` (optional, the columns to draw, first the values) and
/// `saved_view_reference_id` (optional, unique per key).
pub async fn create(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    body: super::extract::JsonBody,
) -> Result<Json<Value>, ApiError> {
    let body = &body.object;
    let name = super::body::name(body, "name", MAX_NAME, true)?.unwrap_or_default();
    let kind = match text(body, "viz_component_type")? {
        Some(k) => CardKind::from_name(&k).ok_or_else(|| {
            ApiError::invalid(
                "viz_component_type",
                format!("viz_component_type must be one of {}", CardKind::list()),
            )
        })?,
        None => {
            return Err(ApiError::invalid(
                "viz_component_type",
                "viz_component_type is required: the card type the view draws",
            ))
        }
    };
    let schema_id = match (checked_id(body, "schema_id")?, checked_id(body, "file_id")?) {
        (Some(schema), _) => schema,
        (None, Some(file_id)) => super::files::row(&api, &tenant, &file_id).await?.schema_id,
        (None, None) => {
            return Err(ApiError::invalid(
                "schema_id",
                "schema_id (or file_id, for its file's schema) is required",
            ))
        }
    };
    let columns = string_list(body, "columns")?;
    if columns.len() > MAX_COLUMNS || columns.iter().any(|c| c.trim().is_empty()) {
        return Err(ApiError::invalid(
            "columns",
            format!("columns must be 1 to {MAX_COLUMNS} column names"),
        ));
    }
    let row = ViewRow {
        view_id: new_id("view"),
        reference_id: checked_id(body, "saved_view_reference_id")?,
        schema_id,
        name,
        card_type: kind.as_str().to_owned(),
        query: (!columns.is_empty()).then(|| columns.join(" by ")),
        created_at: now_rfc3339(),
    };
    let (t, saved) = (tenant.clone(), row.clone());
    let outcome = blocking(&api, move |store| store.create_view(&t, &saved, MAX_VIEWS)).await?;
    match outcome {
        Ok(()) => Ok(Json(view_object(&row))),
        Err("reference_taken") => Err(ApiError::invalid(
            "saved_view_reference_id",
            "another saved view of this key has this saved_view_reference_id",
        )),
        Err(_) => Err(ApiError::invalid(
            "body",
            format!("this key has {MAX_VIEWS} saved views, the most it can keep"),
        )),
    }
}

async fn views(
    api: &Arc<Api>,
    tenant: &Tenant,
    view_id: Option<String>,
    reference_id: Option<String>,
) -> Result<Vec<ViewRow>, ApiError> {
    let store = api.store()?;
    let t = tenant.clone();
    tokio::task::spawn_blocking(move || {
        store.views(&t, view_id.as_deref(), reference_id.as_deref())
    })
    .await
    .map_err(ApiError::internal)?
    .map_err(ApiError::internal)
}

/// `GET /api/v1/beta/saved_views`: the key's views, oldest first.
pub async fn list(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
) -> Result<Json<Value>, ApiError> {
    let rows = views(&api, &tenant, None, None).await?;
    Ok(Json(json!({
        "object": "list",
        "data": rows.iter().map(view_object).collect::<Vec<_>>(),
        "has_more": false,
    })))
}

/// 4.6 `POST /api/v1/beta/visualize_saved_view`.
pub async fn apply(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    headers: HeaderMap,
    body: super::extract::JsonBody,
) -> Result<Json<Value>, ApiError> {
    let body = &body.object;
    let mut file_ids = string_list(body, "file_ids")?;
    if let Some(id) = text(body, "file_id")? {
        if !file_ids.contains(&id) {
            file_ids.insert(0, id);
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
                if !file_ids.iter().any(|f| f == id) {
                    file_ids.push(id.to_owned());
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
    if file_ids.is_empty() {
        return Err(ApiError::invalid(
            "file_ids",
            "send file_id, file_ids or file_source.file_id: the datasets to apply saved views to",
        ));
    }
    if file_ids.len() > super::visualize::MAX_TABLES {
        return Err(ApiError::invalid(
            "file_ids",
            format!("at most {} files per request", super::visualize::MAX_TABLES),
        ));
    }
    text(body, "segment_id")?;
    let debug = flag(body, "debug", "debug", false)?;
    let view_id = checked_id(body, "saved_view_id")?;
    let reference_id = checked_id(body, "saved_view_reference_id")?;
    let chosen = view_id.is_some() || reference_id.is_some();
    let views = views(&api, &tenant, view_id, reference_id).await?;
    if chosen && views.is_empty() {
        return Err(ApiError::invalid(
            if body.contains_key("saved_view_id") {
                "saved_view_id"
            } else {
                "saved_view_reference_id"
            },
            "no saved view of this key has this id",
        ));
    }
    let names: Vec<String> = views.iter().map(|v| v.view_id.clone()).collect();
    let mut answer = super::visualize::of_views(
        &api,
        &tenant,
        &api.base_url(&headers),
        file_ids,
        views,
        debug,
    )
    .await?;
    let cards = answer["outputs"]["knowledge_cards"]
        .as_array()
        .map_or(0, Vec::len);
    if cards == 0 {
        answer["outputs"]["answer"] = Value::String(if names.is_empty() {
            "This key has no saved views: make one with POST /api/v1/beta/saved_views.".into()
        } else {
            "No saved view draws these files: none is for their schema, or their columns do not fit it (see debug).".into()
        });
    }
    Ok(Json(answer))
}
