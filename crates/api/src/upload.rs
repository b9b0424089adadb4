//! Spec 4.1, the presigned upload: `GET /api/v1/beta/file_upload_url`
//! hands out a form signed for one object key, and `POST /upload/` (not an
//! API path: the spec posts it without a key) takes the form and the file
//! as S3 takes a browser upload, checking the signature, the expiry, every
//! field and the size before anything is written. The key is
//! `<file_id>/<file_name>`: the file id is made when the form is, and the
//! file is there under it (GET file, visualize) once the upload lands.

use std::sync::Arc;

use axum::extract::{Request, State};

use super::extract::Query;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::json;
use time::OffsetDateTime;

use super::ids::{new_id, now_rfc3339};
use super::store::FileRow;
use super::table::{content_type_of, format_of, read};
use super::work::{heavy, READ_MEMORY};
use super::{blocking, sign, Api, ApiError, Tenant, MAX_FILE};

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

/// The form's text fields in order, the file's bytes, and the body's
/// share of the host's body memory (held as long as the bytes are).
pub(super) async fn parts(
    api: &Api,
    request: Request,
    limit: usize,
) -> Result<
    (
        Vec<(String, String)>,
        Option<Vec<u8>>,
        Option<tokio::sync::OwnedSemaphorePermit>,
    ),
    ApiError,
> {
    let boundary = request
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| multer::parse_boundary(v).ok())
        .ok_or_else(|| {
            ApiError::UnsupportedType(
                "the upload is not multipart/form-data".into(),
                "multipart/form-data with the form's fields and a part named file",
            )
        })?;
    let (parts, body) = request.into_parts();
    let (bytes, held) = zdr_embed_page::form::read_limited(
        &parts.headers,
        body,
        &super::extract::rules(api, limit),
    )
    .await?;
    let stream =
        futures_util::stream::once(
            async move { Ok::<_, std::io::Error>(bytes::Bytes::from(bytes)) },
        );
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
    Ok((fields, file, held))
}

pub async fn receive(State(api): State<Arc<Api>>, request: Request) -> Result<Response, ApiError> {
    let limit = MAX_FILE + MAX_FORM_OVERHEAD;
    let (fields, file, _held) = parts(&api, request, limit).await?;
    let store = api.store()?;
    let allowed = sign::verify(store.secret(), &fields, OffsetDateTime::now_utc())
        .map_err(ApiError::UploadRefused)?;
    let keys = api.keys()?;
    if !keys.has_tenant(&allowed.tenant) {
        return Err(ApiError::UploadRefused(
            "the form was signed for a key this host no longer has".into(),
        ));
    }
    let (file_id, name) = key_parts(&allowed.key).ok_or_else(|| {
        ApiError::UploadRefused(
            "the form's key is not one this host hands out (<file id>/<file name>)".into(),
        )
    })?;
    let tenant = Tenant(allowed.tenant.clone());
    // A form stores one file once: a second post changes nothing.
    if let Ok(stored) = super::files::row(&api, &tenant, file_id).await {
        return Err(used(&stored));
    }
    let file = file.ok_or_else(|| ApiError::invalid("file", "the form has no file part"))?;
    let size = file.len() as u64;
    if size < allowed.min_size || size > allowed.max_size {
        return Err(ApiError::UploadRefused(format!(
            "the file is {size} bytes; the policy allows {} to {}",
            allowed.min_size, allowed.max_size
        )));
    }
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

/// The 409 of a form used before.
fn used(stored: &FileRow) -> ApiError {
    ApiError::Conflict(format!(
        "this upload form was used already: file {} was stored from it at {}; ask file_upload_url for a new form to upload another file",
        stored.file_id, stored.created_at
    ))
}

/// A key as this host makes them, `<file id>/<file name>`, split; `None`
/// for anything else, however it was signed: a key never becomes a path,
/// and one with `..`, a leading `/`, a backslash, a NUL or a control
/// character is not even looked at.
fn key_parts(key: &str) -> Option<(&str, &str)> {
    if key.contains("..")
        || key.starts_with('/')
        || key.contains('\\')
        || key.chars().any(char::is_control)
    {
        return None;
    }
    let (file_id, name) = key.split_once('/')?;
    let made = super::ids::is_id(file_id)
        && file_id.starts_with("file_")
        && clean_name(name).is_ok_and(|clean| clean == name)
        && format_of(name).is_some();
    made.then_some((file_id, name))
}

/// The key clients see of a file's cleaned table: never one an upload
/// can have (those are two segments), whatever the upload is called.
fn cleaned_key(file_id: &str, name: &str) -> String {
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    format!("{file_id}/cleaned/{stem}.csv")
}

/// Reads the file into a clean table through the host's admission, then
/// writes the file, the table and the row, in that order (a crash between
/// leaves objects that no row names, never a row without its objects). A
/// new file's row is inserted only if its id is free (else 409, and its
/// objects are removed); `previous`'s row is replaced, its creation time
/// kept, and its objects removed.
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
    // The file, its cleaned CSV (no larger than the table's text bound)
    // and the reading itself.
    let memory = READ_MEMORY + 2 * bytes.len();
    let label = name.to_owned();
    let (bytes, cleaned, context, schema_id) = heavy(api, memory, move |stop| {
        let table = read(format, &bytes, stop).map_err(|e| ApiError::unreadable(&label, e))?;
        stop.check().map_err(|_| ApiError::Deadline(0))?;
        let cleaned = table.to_csv();
        Ok((bytes, cleaned, table.context(), table.schema_id()))
    })
    .await?;
    let tenant = tenant.clone();
    let (file_id, name, content_type) =
        (file_id.to_owned(), name.to_owned(), content_type.to_owned());
    let stored = blocking(api, move |store| {
        let object = store.put_object(&tenant, &bytes)?;
        let cleaned_object = store.put_object(&tenant, cleaned.as_bytes())?;
        let now = now_rfc3339();
        let row = FileRow {
            key: format!("{file_id}/{name}"),
            cleaned_key: cleaned_key(&file_id, &name),
            file_id,
            file_name: name,
            object,
            content_type,
            size: i64::try_from(bytes.len()).unwrap_or(i64::MAX),
            cleaned_object,
            cleaned_context: context,
            schema_id,
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
        match &previous {
            Some(previous) => {
                store.put_file(&tenant, &row)?;
                store.delete_objects(&tenant, &[&previous.object, &previous.cleaned_object])?;
                Ok(Ok(row))
            }
            None if store.insert_file(&tenant, &row)? => Ok(Ok(row)),
            None => {
                store.delete_objects(&tenant, &[&row.object, &row.cleaned_object])?;
                Ok(Err(store.file(&tenant, &row.file_id)?))
            }
        }
    })
    .await?;
    match stored {
        Ok(row) => Ok(row),
        Err(Some(other)) => Err(used(&other)),
        Err(None) => Err(ApiError::internal("a file row was taken and is gone")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_keys_this_host_makes_are_taken() {
        let id = "file_0123456789abcdef01234567";
        assert_eq!(
            key_parts(&format!("{id}/sales.csv")),
            Some((id, "sales.csv"))
        );
        for bad in [
            "file_zz/../../../x.csv".to_owned(),
            format!("/{id}/sales.csv"),
            format!("{id}/../sales.csv"),
            format!("{id}/a\\b.csv"),
            format!("{id}/a\0.csv"),
            format!("{id}/a\nb.csv"),
            format!("{id}/sub/sales.csv"),
            format!("{id}/sales.exe"),
            format!("{id}/.csv"),
            "obj_1/sales.csv".to_owned(),
            "sales.csv".to_owned(),
        ] {
            assert_eq!(key_parts(&bad), None, "{bad:?}");
        }
        assert_ne!(cleaned_key(id, "cleaned.csv"), format!("{id}/cleaned.csv"));
    }
}
