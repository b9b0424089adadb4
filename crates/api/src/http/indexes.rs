//! Private indexes (4.7–4.11) over HTTP.

use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::extract::{JsonBody, Path, Query};
use super::read::{flag, optional, text};
use crate::model::index::{
    ConnectFile, Failure, FailureError, FilesAdded, PrivateIndex, PrivateIndexList,
};
use crate::service::indexes::{
    self, MAX_BATCH, MAX_DESCRIPTION, MAX_NAME, MAX_PAGE_SIZE, PAGE_SIZE,
};
use crate::{Api, ApiError, Tenant};

fn name_of(body: &Map<String, Value>, required: bool) -> Result<Option<String>, ApiError> {
    super::read::name(body, "name", MAX_NAME, required)
}

fn description_of(body: &Map<String, Value>) -> Result<Option<String>, ApiError> {
    let description = text(body, "description")?;
    if description
        .as_ref()
        .is_some_and(|d| d.chars().count() > MAX_DESCRIPTION)
    {
        return Err(ApiError::invalid(
            "description",
            format!("description is longer than {MAX_DESCRIPTION} characters"),
        ));
    }
    Ok(description)
}

/// Updates change `name` and `description` only (4.8, 4.9).
fn only_name_and_description(body: &Map<String, Value>) -> Result<(), ApiError> {
    match body.keys().find(|k| *k != "name" && *k != "description") {
        Some(other) => Err(ApiError::invalid(
            "body",
            format!("{other} cannot be updated: only name and description can"),
        )),
        None => Ok(()),
    }
}

/// A private index's name and description (4.8–4.10).
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // documents the members `create`, `put` and `patch` read by name
pub(crate) struct IndexBody {
    name: Option<String>,
    description: Option<String>,
}

/// 4.10.
#[utoipa::path(post, path = "/api/v1/beta/private_indexes/", operation_id = "create_private_index", tag = "private indexes", request_body = IndexBody,
    description = "A new private index; `name` is required.",
    responses((status = 200, body = PrivateIndex), (status = 400, body = crate::error::Body), (status = 409, body = crate::error::Body)))]
pub async fn create(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    body: JsonBody,
) -> Result<Json<PrivateIndex>, ApiError> {
    let body = &body.object;
    let name = name_of(body, true)?.unwrap_or_default();
    let description = description_of(body)?;
    Ok(Json(
        indexes::create(&api, &tenant, name, description).await?,
    ))
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Page {
    /// From 1.
    #[param(value_type = Option<u64>)]
    page: Option<String>,
    /// 1 to 100, 20 unless given.
    #[param(value_type = Option<u64>)]
    page_size: Option<String>,
}

fn number(
    value: Option<&str>,
    param: &'static str,
    default: u64,
    max: u64,
) -> Result<u64, ApiError> {
    let Some(value) = value else {
        return Ok(default);
    };
    match value.parse::<u64>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(ApiError::invalid(
            param,
            format!("{param} must be a whole number from 1 to {max}"),
        )),
    }
}

/// 4.11 `GET private_indexes/?page=1&page_size=20`.
#[utoipa::path(get, path = "/api/v1/beta/private_indexes/", operation_id = "list_private_indexes", tag = "private indexes", params(Page),
    responses((status = 200, body = PrivateIndexList), (status = 400, body = crate::error::Body), (status = 404, description = "A page past the last", body = crate::error::Body)))]
pub async fn list(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    headers: HeaderMap,
    Query(query): Query<Page>,
) -> Result<Json<PrivateIndexList>, ApiError> {
    let page = number(query.page.as_deref(), "page", 1, u64::from(u32::MAX))?;
    let size = number(
        query.page_size.as_deref(),
        "page_size",
        PAGE_SIZE,
        MAX_PAGE_SIZE,
    )?;
    Ok(Json(
        indexes::list(&api, &tenant, &api.base_url(&headers), page, size).await?,
    ))
}

/// 4.9 `PUT private_indexes/{id}/`: name and description both replaced
/// (an absent description becomes null).
#[utoipa::path(put, path = "/api/v1/beta/private_indexes/{id}/", operation_id = "replace_private_index", tag = "private indexes", params(("id" = String, Path, description = "A private index of this key")), request_body = IndexBody,
    responses((status = 200, body = PrivateIndex), (status = 400, body = crate::error::Body), (status = 404, body = crate::error::Body), (status = 409, body = crate::error::Body)))]
pub async fn put(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
    body: JsonBody,
) -> Result<Json<PrivateIndex>, ApiError> {
    let body = &body.object;
    only_name_and_description(body)?;
    let name = name_of(body, true)?;
    let description = description_of(body)?;
    Ok(Json(
        indexes::update(&api, &tenant, &id, name, Some(description)).await?,
    ))
}

/// 4.8 `PATCH private_indexes/{id}/`: only the members sent.
#[utoipa::path(patch, path = "/api/v1/beta/private_indexes/{id}/", operation_id = "update_private_index", tag = "private indexes", params(("id" = String, Path, description = "A private index of this key")), request_body = IndexBody,
    responses((status = 200, body = PrivateIndex), (status = 400, body = crate::error::Body), (status = 404, body = crate::error::Body), (status = 409, body = crate::error::Body)))]
pub async fn patch(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
    body: JsonBody,
) -> Result<Json<PrivateIndex>, ApiError> {
    let body = &body.object;
    only_name_and_description(body)?;
    if body.is_empty() {
        return Err(ApiError::invalid(
            "body",
            "send name, description or both: nothing to change",
        ));
    }
    let name = name_of(body, false)?;
    let description = if body.contains_key("description") {
        Some(description_of(body)?)
    } else {
        None
    };
    Ok(Json(
        indexes::update(&api, &tenant, &id, name, description).await?,
    ))
}

/// One entry of 4.7's `files`, or why it is no entry.
fn entry(at: usize, value: &Value) -> Result<ConnectFile, Box<Failure>> {
    let fail = |error: ApiError| {
        Box::new(Failure {
            index: at,
            file_id: value.get("file_id").cloned(),
            file_url: value.get("file_url").cloned(),
            error: FailureError {
                status: error.status().as_u16(),
                code: error.code(),
                message: error.to_string(),
            },
        })
    };
    let Some(object) = value.as_object() else {
        return Err(fail(ApiError::invalid(
            "files",
            "each entry of files must be an object with file_url or file_id",
        )));
    };
    let read = |name: &'static str| text(object, name).map_err(fail);
    Ok(ConnectFile {
        file_url: read("file_url")?,
        file_id: read("file_id")?,
        file_context: read("file_context")?,
        source: read("source")?,
    })
}

/// 4.7's body.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // documents the members `add_files` reads by name
pub(crate) struct AddFilesBody {
    /// 1 to 20 files: each a `file_url` to connect or a `file_id` of this key.
    files: Vec<IndexFileEntry>,
    generate_ontology: Option<bool>,
    link_world_ontology: Option<bool>,
}

#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // documents what `entry` reads
pub(crate) struct IndexFileEntry {
    file_url: Option<String>,
    file_id: Option<String>,
    file_context: Option<String>,
    source: Option<String>,
}

/// 4.7 `POST private_indexes/{id}/files/`.
#[utoipa::path(post, path = "/api/v1/beta/private_indexes/{id}/files/", operation_id = "add_private_index_files", tag = "private indexes", params(("id" = String, Path, description = "A private index of this key")), request_body = AddFilesBody,
    description = "Adds files to the index; an entry that fails is in `failures`, the others are added.",
    responses((status = 200, body = FilesAdded), (status = 400, body = crate::error::Body), (status = 404, body = crate::error::Body)))]
pub async fn add_files(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
    body: JsonBody,
) -> Result<Json<FilesAdded>, ApiError> {
    // The index first: another key's answers 404 whatever the body holds.
    indexes::exists(&api, &tenant, &id).await?;
    let body = &body.object;
    let entries = match optional(body, "files") {
        Some(Value::Array(entries)) if entries.is_empty() => {
            return Err(ApiError::invalid("files", "files is empty: nothing to add"))
        }
        Some(Value::Array(entries)) if entries.len() > MAX_BATCH => {
            return Err(ApiError::invalid(
                "files",
                format!(
                    "files has {} entries; one call adds at most {MAX_BATCH}",
                    entries.len()
                ),
            ))
        }
        Some(Value::Array(entries)) => entries
            .iter()
            .enumerate()
            .map(|(at, e)| entry(at, e))
            .collect(),
        Some(_) => return Err(ApiError::invalid("files", "files must be an array")),
        None => return Err(ApiError::invalid("files", "files is required: an array")),
    };
    let generate = flag(body, "generate_ontology", "generate_ontology", true)?;
    let link = flag(body, "link_world_ontology", "link_world_ontology", false)?;
    Ok(Json(
        indexes::add_files(&api, &tenant, &id, entries, generate, link).await?,
    ))
}
