//! Spec 4.12, `GET /api/v1/beta/files/{file_id}/`: the dataset file object
//! of 2.6, with the cleaned table as its one cleaned file; and the cleaned
//! table itself (`…/cleaned/`, CSV), which `cleaned_files[].file_url`
//! names.

use std::sync::Arc;

use axum::extract::{FromRequest, State};

use super::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde_json::{json, Value};

use super::store::FileRow;
use super::{Api, ApiError, Tenant};

pub(super) async fn row(
    api: &Arc<Api>,
    tenant: &Tenant,
    file_id: &str,
) -> Result<FileRow, ApiError> {
    if !super::ids::is_id(file_id) {
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
    let csv = tokio::task::spawn_blocking(move || store.object(&tenant, &row.cleaned_object))
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

/// Spec 4.2, `POST /api/v1/beta/files`: the cards of a file, in the 2.4
/// envelope. How the content reaches it is not shown in the spec; here it
/// comes either way:
///
/// - JSON `{"file_name": …}` names a file uploaded before (4.1): its `key`
///   (`<file_id>/<name>`), or its name, the newest upload of that name;
/// - `multipart/form-data` with `file_name` and a part `file` stores the
///   file first, as an upload is stored.
///
/// Either way the file may hold at most 100 KB (spec section 8).
pub async fn post_files(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    headers: HeaderMap,
    request: axum::extract::Request,
) -> Result<Json<Value>, ApiError> {
    let base = api.base_url(&headers);
    let multipart = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.trim_start()
                .to_ascii_lowercase()
                .starts_with("multipart/form-data")
        });
    let file_id = if multipart {
        let (fields, file, _held) =
            super::upload::parts(&api, request, super::MAX_FILE + 16 * 1024).await?;
        let name = fields
            .iter()
            .find(|(n, _)| n == "file_name")
            .map(|(_, v)| v.clone())
            .ok_or_else(|| ApiError::invalid("file_name", "the form needs a file_name field"))?;
        let file = file.ok_or_else(|| ApiError::invalid("file", "the form has no file part"))?;
        if file.len() > super::MAX_FILE {
            return Err(ApiError::TooLarge {
                what: "the file".into(),
                limit: super::MAX_FILE,
            });
        }
        let name = super::upload::clean_name(&name)?;
        let id = super::ids::new_id("file");
        let content_type = super::table::format_of(&name)
            .map_or("application/octet-stream", super::table::content_type_of);
        super::upload::store_file(&api, &tenant, &id, &name, content_type, file, None).await?;
        id
    } else {
        let body = super::extract::JsonBody::from_request(request, &api).await?;
        let body = body.object;
        let name = body
            .get("file_name")
            .and_then(Value::as_str)
            .filter(|n| !n.trim().is_empty())
            .ok_or_else(|| ApiError::invalid("file_name", "file_name is required: the key or the name of a file uploaded through file_upload_url"))?
            .to_owned();
        match name.split_once('/') {
            Some((id, _)) if row(&api, &tenant, id).await.is_ok_and(|r| r.key == name) => {
                id.to_owned()
            }
            _ => {
                let store = api.store()?;
                let (t, wanted) = (
                    tenant.clone(),
                    super::upload::clean_name(&name).unwrap_or_else(|_| name.clone()),
                );
                tokio::task::spawn_blocking(move || store.file_named(&t, &wanted))
                    .await
                    .map_err(ApiError::internal)?
                    .map_err(ApiError::internal)?
                    .ok_or_else(|| {
                        ApiError::FileNotFound(format!(
                            "{name} (upload it first through file_upload_url)"
                        ))
                    })?
            }
        }
    };
    let file = row(&api, &tenant, &file_id).await?;
    if file.size > super::MAX_FILE as i64 {
        return Err(ApiError::TooLarge {
            what: format!("the file {}", file.file_name),
            limit: super::MAX_FILE,
        });
    }
    super::visualize::of_file(&api, &tenant, &base, file_id)
        .await
        .map(Json)
}
