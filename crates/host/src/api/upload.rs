//! Spec 4.1, the presigned upload: `GET /api/v1/beta/file_upload_url`
//! hands out a form signed for one object key, and `POST /upload/` (not an
//! API path: the spec posts it without a key) takes the form and the file
//! as S3 takes a browser upload, checking the signature, the expiry, every
//! field and the size before anything is written. The key is
//! `<file_id>/<file_name>`: the file id is made when the form is, and the
//! file is there under it (GET file, visualize) once the upload lands.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::json;
use time::OffsetDateTime;

use super::ids::{new_id, now_rfc3339};
use super::store::FileRow;
use super::table::{content_type_of, format_of, read};
use super::{sign, Api, ApiError, Tenant, MAX_FILE};

pub const UPLOAD_PATH: &str = "/upload/";

/// Room for the form's fields around the file.
const MAX_FORM_OVERHEAD: usize = 16 * 1024;

/// Characters of a file name kept in the key.
const MAX_FILE_NAME: usize = 128;

#[derive(Deserialize)]
pub struct UploadQuery {
    file_name: Option<String>,
}

/// A file name as the key holds it: its last path segment, with anything
/// but letters, digits, `.`, `-` and `_` made `_`.
pub(super) fn clean_name(given: &str) -> Result<String, ApiError> {
    let last = given.rsplit(['/', '\\']).next().unwrap_or("").trim();
    let clean: String = last
        .chars()
        .take(MAX_FILE_NAME)
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.is_empty() || clean.starts_with('.') {
        return Err(ApiError::invalid(
            "file_name",
            "file_name must name a file, e.g. file_name=sales.csv",
        ));
    }
    Ok(clean)
}

fn format_or_refusal(name: &str) -> Result<&'static str, ApiError> {
    format_of(name).ok_or_else(|| {
        ApiError::invalid(
            "file_name",
            format!("{name}: the formats are .csv, .xls, .xlsx and .parquet"),
        )
    })
}

pub async fn upload_url(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    headers: HeaderMap,
    Query(query): Query<UploadQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let given = query.file_name.ok_or_else(|| {
        ApiError::invalid(
            "file_name",
            "the query needs file_name, e.g. ?file_name=sales.csv",
        )
    })?;
    let name = clean_name(&given)?;
    let format = format_or_refusal(&name)?;
    let store = api.store()?;
    let key = format!("{}/{name}", new_id("file"));
    let form = sign::form(
        store.secret(),
        &tenant.0,
        &key,
        content_type_of(format),
        MAX_FILE,
        OffsetDateTime::now_utc(),
    );
    let fields: serde_json::Map<String, serde_json::Value> = form
        .fields
        .into_iter()
        .map(|(name, value)| (name.to_owned(), value.into()))
        .collect();
    Ok(Json(json!({
        "url": format!("{}{UPLOAD_PATH}", api.base_url(&headers)),
        "fields": fields,
        "key": key,
    })))
}

/// The form's text fields in order, and the file's bytes.
pub(super) async fn parts(
    request: Request,
    limit: usize,
) -> Result<(Vec<(String, String)>, Option<Vec<u8>>), ApiError> {
    let boundary = request
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| multer::parse_boundary(v).ok())
        .ok_or_else(|| {
            ApiError::invalid("Content-Type", "the upload must be multipart/form-data")
        })?;
    let body: Body = request.into_body();
    let bytes = axum::body::to_bytes(body, limit)
        .await
        .map_err(|_| ApiError::TooLarge {
            what: "the upload".into(),
            limit,
        })?;
    let stream = futures_util::stream::once(async move { Ok::<_, std::io::Error>(bytes) });
    let mut multipart = multer::Multipart::new(stream, boundary);
    let mut fields = Vec::new();
    let mut file = None;
    let malformed = |e: multer::Error| {
        ApiError::invalid("file", format!("the multipart body is malformed: {e}"))
    };
    while let Some(field) = multipart.next_field().await.map_err(malformed)? {
        let name = field.name().unwrap_or("").to_owned();
        if name == "file" {
            file = Some(field.bytes().await.map_err(malformed)?.to_vec());
            // As S3: fields after the file are ignored.
            break;
        }
        let value = field.text().await.map_err(malformed)?;
        fields.push((name, value));
    }
    Ok((fields, file))
}

pub async fn receive(State(api): State<Arc<Api>>, request: Request) -> Result<Response, ApiError> {
    let limit = MAX_FILE + MAX_FORM_OVERHEAD;
    let timeout = api.config.body_timeout;
    let (fields, file) = tokio::time::timeout(timeout, parts(request, limit))
        .await
        .map_err(|_| ApiError::invalid("file", "the upload did not arrive in time"))??;
    let store = api.store()?;
    let allowed = sign::verify(store.secret(), &fields, OffsetDateTime::now_utc())
        .map_err(ApiError::UploadRefused)?;
    let keys = api.keys()?;
    if !keys.has_tenant(&allowed.tenant) {
        return Err(ApiError::UploadRefused(
            "the form was signed for a key this host no longer has".into(),
        ));
    }
    let file = file.ok_or_else(|| ApiError::invalid("file", "the form has no file part"))?;
    let size = file.len() as u64;
    if size < allowed.min_size || size > allowed.max_size {
        return Err(ApiError::UploadRefused(format!(
            "the file is {size} bytes; the policy allows {} to {}",
            allowed.min_size, allowed.max_size
        )));
    }
    let (file_id, name) = allowed
        .key
        .split_once('/')
        .ok_or_else(|| ApiError::UploadRefused("the key is malformed".into()))?;
    let tenant = Tenant(allowed.tenant.clone());
    let row = store_file(
        &api,
        &tenant,
        file_id,
        name,
        &allowed.content_type,
        file,
        None,
    )
    .await?;
    tracing::info!(file_id = %row.file_id, size, "api: upload stored");
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Reads the file into a clean table, then writes the file, the table and
/// the row, in that order (a crash between leaves no row).
pub async fn store_file(
    api: &Arc<Api>,
    tenant: &Tenant,
    file_id: &str,
    name: &str,
    content_type: &str,
    bytes: Vec<u8>,
    previous: Option<FileRow>,
) -> Result<FileRow, ApiError> {
    let format = format_or_refusal(name)?;
    let store = api.store()?;
    let tenant = tenant.clone();
    let (file_id, name, content_type) =
        (file_id.to_owned(), name.to_owned(), content_type.to_owned());
    tokio::task::spawn_blocking(move || {
        let table =
            read(format, &bytes).map_err(|e| ApiError::Unreadable(format!("{name}: {e}")))?;
        let key = format!("{file_id}/{name}");
        let cleaned_key = format!("{file_id}/cleaned.csv");
        store
            .put_object(&tenant, &key, &bytes)
            .map_err(ApiError::internal)?;
        store
            .put_object(&tenant, &cleaned_key, table.to_csv().as_bytes())
            .map_err(ApiError::internal)?;
        let now = now_rfc3339();
        let row = FileRow {
            file_id,
            file_name: name,
            key,
            content_type,
            size: i64::try_from(bytes.len()).unwrap_or(i64::MAX),
            cleaned_key,
            cleaned_context: table.context(),
            schema_id: table.schema_id(),
            created_at: previous
                .as_ref()
                .map_or_else(|| now.clone(), |p| p.created_at.clone()),
            updated_at: now,
            source: previous.as_ref().and_then(|p| p.source.clone()),
            file_context: previous.as_ref().and_then(|p| p.file_context.clone()),
            file_url: previous.as_ref().and_then(|p| p.file_url.clone()),
            segment_id: previous.as_ref().and_then(|p| p.segment_id.clone()),
            private_index: previous.as_ref().and_then(|p| p.private_index.clone()),
            prepend_schema_context: previous.as_ref().is_none_or(|p| p.prepend_schema_context),
        };
        store.put_file(&tenant, &row).map_err(ApiError::internal)?;
        Ok(row)
    })
    .await
    .map_err(ApiError::internal)?
}
