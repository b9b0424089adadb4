//! Spec 4.7–4.11, private indexes: create, list (the paginated envelope of
//! 2.10), full and partial update, and files added in a batch (each
//! connected from its URL, or an existing file of the key; one metadata
//! entry per file added, the failures beside them).
//!
//! `ontology_status`, which the spec leaves open, moves through `empty` (no
//! file yet), `schema` (files added with `generate_ontology`, the default:
//! the index's ontology is its files' schemas, written as a JSON object
//! whose key is `kg_elements_bucket_key`) and `skipped` (files added, none
//! with `generate_ontology`). `link_world_ontology` is recorded on the
//! index.

use std::sync::Arc;

use axum::extract::State;

use super::extract::{Path, Query};
use axum::http::HeaderMap;
use axum::{Extension, Json};
use serde_json::{json, Map, Value};

use super::body::{flag, optional, text};
use super::connector::{connect_file, metadata, Connect};
use super::ids::{is_id, now_rfc3339};
use super::store::IndexRow;
use super::{blocking, Api, ApiError, Tenant};

/// Indexes a page lists when `page_size` is not given, and at most.
pub const PAGE_SIZE: u64 = 20;
pub const MAX_PAGE_SIZE: u64 = 100;
/// Files one call of 4.7 adds at most (each may be a 5 MB download).
pub const MAX_BATCH: usize = 20;
const MAX_NAME: usize = 200;
const MAX_DESCRIPTION: usize = 2_000;

const EMPTY: &str = "empty";
const SCHEMA: &str = "schema";
const SKIPPED: &str = "skipped";

/// 2.7 as create and list answer it.
fn summary(row: &IndexRow) -> Value {
    json!({
        "id": row.id,
        "name": row.name,
        "description": row.description,
        "is_default": row.is_default,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
        "ontology_status": row.ontology_status,
    })
}

/// 2.7 complete, as PUT and PATCH answer it: with the ontology's key and the
/// keys of the index's cleaned tables (null while it has none).
async fn complete(api: &Arc<Api>, tenant: &Tenant, row: &IndexRow) -> Result<Value, ApiError> {
    let (t, id) = (tenant.clone(), row.id.clone());
    let files = blocking(api, move |store| store.index_files(&t, &id)).await?;
    let mut object = summary(row);
    if let Some(map) = object.as_object_mut() {
        map.insert("kg_elements_bucket_key".into(), json!(row.kg_elements_key));
        let keys: Vec<&str> = files.iter().map(|(_, _, key, _)| key.as_str()).collect();
        map.insert(
            "data_mapping_bucket_keys".into(),
            if keys.is_empty() {
                Value::Null
            } else {
                json!(keys)
            },
        );
    }
    Ok(object)
}

async fn find(api: &Arc<Api>, tenant: &Tenant, id: &str) -> Result<IndexRow, ApiError> {
    let missing = || ApiError::IndexNotFound(id.chars().take(64).collect());
    if !is_id(id) {
        return Err(missing());
    }
    let (t, i) = (tenant.clone(), id.to_owned());
    blocking(api, move |store| store.index(&t, &i))
        .await?
        .ok_or_else(missing)
}

/// Whether `id` is a private index of this key (404 when not).
pub(super) async fn exists(api: &Arc<Api>, tenant: &Tenant, id: &str) -> Result<(), ApiError> {
    find(api, tenant, id).await.map(|_| ())
}

/// `connected_private_index_id` (file_connector, visualize) must name an
/// index of this key; another key's answers as one that does not exist.
pub(super) async fn connected(
    api: &Arc<Api>,
    tenant: &Tenant,
    id: Option<&str>,
) -> Result<(), ApiError> {
    match id {
        None => Ok(()),
        Some(id) => exists(api, tenant, id)
            .await
            .map_err(|_| ApiError::ConnectedIndexNotFound(id.chars().take(64).collect())),
    }
}

fn name_of(body: &Map<String, Value>, required: bool) -> Result<Option<String>, ApiError> {
    super::body::name(body, "name", MAX_NAME, required)
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

/// 4.10 `POST /api/v1/beta/private_indexes/`.
pub async fn create(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    body: super::extract::JsonBody,
) -> Result<Json<Value>, ApiError> {
    let body = &body.object;
    let name = name_of(body, true)?.unwrap_or_default();
    let description = description_of(body)?;
    let row = blocking(&api, move |store| {
        store.create_index(&tenant, &name, description.as_deref(), EMPTY)
    })
    .await?;
    Ok(Json(summary(&row)))
}

#[derive(serde::Deserialize)]
pub struct Page {
    page: Option<String>,
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

/// 4.11 `GET /api/v1/beta/private_indexes/?page=1&page_size=20`: pages
/// from 1, oldest index first; `next` and `previous` are the addresses of
/// the neighbouring pages, null at the ends. A page past the last is empty.
pub async fn list(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    headers: HeaderMap,
    Query(query): Query<Page>,
) -> Result<Json<Value>, ApiError> {
    let page = number(query.page.as_deref(), "page", 1, u64::from(u32::MAX))?;
    let size = number(
        query.page_size.as_deref(),
        "page_size",
        PAGE_SIZE,
        MAX_PAGE_SIZE,
    )?;
    let offset = (page - 1).saturating_mul(size);
    let (rows, count) = blocking(&api, move |store| store.indexes(&tenant, offset, size)).await?;
    let base = api.base_url(&headers);
    let at =
        |page: u64| format!("{base}/api/v1/beta/private_indexes/?page={page}&page_size={size}");
    let pages = count.div_ceil(size).max(1);
    Ok(Json(json!({
        "results": rows.iter().map(summary).collect::<Vec<_>>(),
        "count": count,
        "next": (page < pages).then(|| at(page + 1)),
        "previous": (page > 1).then(|| at((page - 1).min(pages))),
    })))
}

/// 4.9 `PUT /api/v1/beta/private_indexes/{id}/`: name and description both
/// replaced (an absent description becomes null).
pub async fn put(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
    body: super::extract::JsonBody,
) -> Result<Json<Value>, ApiError> {
    let mut row = find(&api, &tenant, &id).await?;
    let body = &body.object;
    only_name_and_description(body)?;
    row.name = name_of(body, true)?.unwrap_or_default();
    row.description = description_of(body)?;
    save(&api, &tenant, row).await
}

/// 4.8 `PATCH /api/v1/beta/private_indexes/{id}/`: only the members sent.
pub async fn patch(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
    body: super::extract::JsonBody,
) -> Result<Json<Value>, ApiError> {
    let mut row = find(&api, &tenant, &id).await?;
    let body = &body.object;
    only_name_and_description(body)?;
    if body.is_empty() {
        return Err(ApiError::invalid(
            "body",
            "send name, description or both: nothing to change",
        ));
    }
    if let Some(name) = name_of(body, false)? {
        row.name = name;
    }
    if body.contains_key("description") {
        row.description = description_of(body)?;
    }
    save(&api, &tenant, row).await
}

async fn save(api: &Arc<Api>, tenant: &Tenant, mut row: IndexRow) -> Result<Json<Value>, ApiError> {
    row.updated_at = now_rfc3339();
    let (t, saved) = (tenant.clone(), row.clone());
    blocking(api, move |store| store.put_index(&t, &saved)).await?;
    Ok(Json(complete(api, tenant, &row).await?))
}

/// One entry of 4.7's `files`, added: from its URL (connected as 4.4
/// does), else the existing file of its `file_id`.
async fn add_one(
    api: &Arc<Api>,
    tenant: &Tenant,
    index: &str,
    entry: &Value,
) -> Result<super::store::FileRow, ApiError> {
    let Some(entry) = entry.as_object() else {
        return Err(ApiError::invalid(
            "files",
            "each entry of files must be an object with file_url or file_id",
        ));
    };
    let file_url = text(entry, "file_url")?;
    let file_id = text(entry, "file_id")?;
    let file_context = text(entry, "file_context")?;
    let source = text(entry, "source")?;
    match (file_url, file_id) {
        (Some(file_url), file_id) => {
            let request = Connect {
                file_url,
                file_id,
                source,
                file_context,
                segment_id: None,
                private_index: Some(index.to_owned()),
                prepend_schema_context: true,
            };
            Ok(connect_file(api, tenant, request).await?.0)
        }
        (None, Some(file_id)) => {
            let mut row = super::files::row(api, tenant, &file_id).await?;
            row.private_index = Some(index.to_owned());
            row.file_context = file_context.or(row.file_context);
            row.source = source.or(row.source);
            row.updated_at = now_rfc3339();
            let (t, saved) = (tenant.clone(), row.clone());
            blocking(api, move |store| store.put_file(&t, &saved)).await?;
            Ok(row)
        }
        (None, None) => Err(ApiError::invalid(
            "files",
            "each entry of files needs file_url (a file to connect) or file_id (a file of this key)",
        )),
    }
}

/// 4.7 `POST /api/v1/beta/private_indexes/{id}/files/`.
pub async fn add_files(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
    body: super::extract::JsonBody,
) -> Result<Json<Value>, ApiError> {
    let mut index = find(&api, &tenant, &id).await?;
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
        Some(Value::Array(entries)) => entries.clone(),
        Some(_) => return Err(ApiError::invalid("files", "files must be an array")),
        None => return Err(ApiError::invalid("files", "files is required: an array")),
    };
    let generate = flag(body, "generate_ontology", "generate_ontology", true)?;
    let link = flag(body, "link_world_ontology", "link_world_ontology", false)?;

    let state = if generate { SCHEMA } else { SKIPPED };
    let mut added = Vec::new();
    let mut failures = Vec::new();
    for (at, entry) in entries.iter().enumerate() {
        match add_one(&api, &tenant, &index.id, entry).await {
            Ok(row) => added.push(metadata(&row, state)),
            Err(error) => failures.push(json!({
                "index": at,
                "file_id": entry.get("file_id"),
                "file_url": entry.get("file_url"),
                "error": {"status": error.status().as_u16(), "code": error.code(), "message": error.to_string()},
            })),
        }
    }
    if added.is_empty() {
        let first = failures
            .first()
            .and_then(|f| f["error"]["message"].as_str())
            .unwrap_or("")
            .to_owned();
        return Err(ApiError::invalid(
            "files",
            format!("no file could be added; the first: {first}"),
        ));
    }

    // The index's ontology: the schemas of all its files, rebuilt.
    index.link_world_ontology |= link;
    if generate {
        let (t, i) = (tenant.clone(), index.id.clone());
        let files = blocking(&api, move |store| store.index_files(&t, &i)).await?;
        let elements: Vec<Value> = files
            .iter()
            .map(|(file_id, schema_id, _, context)| {
                json!({"file_id": file_id, "schema_id": schema_id, "schema": context})
            })
            .collect();
        let document = json!({"index": index.id, "elements": elements}).to_string();
        let (t, old) = (tenant.clone(), index.kg_elements_key.clone());
        let key = blocking(&api, move |store| {
            let key = store.put_object(&t, document.as_bytes())?;
            if let Some(old) = old {
                store.delete_objects(&t, &[&old])?;
            }
            Ok(key)
        })
        .await?;
        index.kg_elements_key = Some(key);
        index.ontology_status = SCHEMA.into();
    } else if index.ontology_status == EMPTY {
        index.ontology_status = SKIPPED.into();
    }
    index.updated_at = now_rfc3339();
    let (t, saved) = (tenant.clone(), index.clone());
    blocking(&api, move |store| store.put_index(&t, &saved)).await?;

    let mut message = format!(
        "{} of {} files added to private index {}",
        added.len(),
        entries.len(),
        index.id
    );
    if !failures.is_empty() {
        message.push_str("; see failures for the others");
    }
    Ok(Json(
        json!({"message": message, "files": added, "failures": failures}),
    ))
}
