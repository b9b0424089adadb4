//! Spec 4.12, `GET /api/v1/beta/files/{file_id}/`: the dataset file object
//! of 2.6, with the cleaned table as its one cleaned file; and the cleaned
//! table itself (`…/cleaned/`, CSV), which `cleaned_files[].file_url`
//! names.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde_json::{json, Value};

use super::store::FileRow;
use super::{Api, ApiError, Tenant};

/// File ids as this host makes them (`file_` and hex); anything else is
/// no file here.
fn valid_id(id: &str) -> bool {
    id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

pub(super) async fn row(
    api: &Arc<Api>,
    tenant: &Tenant,
    file_id: &str,
) -> Result<FileRow, ApiError> {
    if !valid_id(file_id) {
        return Err(ApiError::FileNotFound(file_id.chars().take(64).collect()));
    }
    let store = api.store()?;
    let (tenant, id) = (tenant.clone(), file_id.to_owned());
    tokio::task::spawn_blocking(move || store.file(&tenant, &id))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)?
        .ok_or_else(|| ApiError::FileNotFound(file_id.to_owned()))
}

pub fn file_object(row: &FileRow, base_url: &str) -> Value {
    let display_name = row
        .file_name
        .rsplit_once('.')
        .map_or(row.file_name.as_str(), |(stem, _)| stem);
    json!({
        "file_id": row.file_id,
        "cleaned_files": [{
            "key": row.cleaned_key,
            "cleaned_file_id": format!("{}-cleaned", row.file_id),
            "cleaned_context": row.cleaned_context,
            "file_url": format!("{base_url}/api/v1/beta/files/{}/cleaned/", row.file_id),
            "file_context": row.file_context.clone().unwrap_or_default(),
            "created_at": row.updated_at,
            "updated_at": row.updated_at,
        }],
        "last_updated_at": row.updated_at,
        "key": row.key,
        "schema": {"schema_id": row.schema_id, "display_name": display_name},
        "file_url": row.file_url,
        "file_context": row.file_context,
        "segment_id": row.segment_id,
        "source": row.source,
        "connected_private_index": row.private_index,
    })
}

pub async fn get_file(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    headers: HeaderMap,
    Path(file_id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let row = row(&api, &tenant, &file_id).await?;
    Ok(Json(file_object(&row, &api.base_url(&headers))))
}

pub async fn get_cleaned(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Path(file_id): Path<String>,
) -> Result<Response, ApiError> {
    let row = row(&api, &tenant, &file_id).await?;
    let store = api.store()?;
    let csv = tokio::task::spawn_blocking(move || store.object(&tenant, &row.cleaned_key))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)?;
    let mut response = csv.into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    Ok(response)
}
