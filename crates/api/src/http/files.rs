//! Files over HTTP: the presigned upload (4.1) and its form's target, a
//! file (4.12) with its update and delete, its cleaned table, `POST files`
//! (4.2), and the file connector (4.4) with its list.

use std::sync::Arc;

use axum::extract::{FromRequest, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::Value;

use super::extract::{JsonBody, Path, Query};
use super::read::{flag, text};
use crate::model::card::Results;
use crate::model::file::{
    DatasetFile, FileConnectorCreated, FileConnectorList, FileFacts, FileUpdate, FileUploadUrl,
};
use crate::service::files::{self, Connect, Stored, MAX_FACT};
use crate::service::visualize;
use crate::table::{content_type_of, format_of};
use crate::{Api, ApiError, Tenant, MAX_FILE};

/// Room for the form's fields around the file.
const MAX_FORM_OVERHEAD: usize = 16 * 1024;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UploadQuery {
    /// The file's name, its format by its extension: .csv, .xls, .xlsx or .parquet.
    #[param(required = true)]
    file_name: Option<String>,
    /// A name to show for it.
    display_name: Option<String>,
    /// What it holds, in words ("amt means revenue" names a column too).
    file_context: Option<String>,
    /// Where it comes from.
    source: Option<String>,
}

/// A fact of a file (`display_name`, `file_context`, `source`), at most
/// [`MAX_FACT`] characters.
fn fact(value: Option<String>, param: &'static str) -> Result<Option<String>, ApiError> {
    match value {
        Some(v) if v.chars().count() > MAX_FACT => Err(ApiError::invalid(
            param,
            format!("{param} is longer than {MAX_FACT} characters"),
        )),
        v => Ok(v),
    }
}

/// 4.1 `GET file_upload_url`.
#[utoipa::path(get, path = "/api/v1/beta/file_upload_url", operation_id = "get_file_upload_url", tag = "files", params(UploadQuery),
    description = "A form signed for one new file: post the file with `fields` to `url` (this host's `/upload/`, or the bucket itself).",
    responses((status = 200, body = FileUploadUrl), (status = 400, description = "No file_name, or not a format the host reads", body = crate::error::Body)))]
pub async fn upload_url(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    headers: HeaderMap,
    Query(query): Query<UploadQuery>,
) -> Result<Json<FileUploadUrl>, ApiError> {
    let name = query.file_name.ok_or_else(|| {
        ApiError::invalid(
            "file_name",
            "the query needs file_name, e.g. ?file_name=sales.csv",
        )
    })?;
    let facts = FileFacts {
        display_name: fact(query.display_name, "display_name")?,
        file_context: fact(query.file_context, "file_context")?,
        source: fact(query.source, "source")?,
    };
    let form = files::upload_form(&api, &tenant, &api.base_url(&headers), &name, &facts).await?;
    Ok(Json(form))
}

/// The form's text fields in order, the file's bytes, and the body's
/// share of the host's body memory (held as long as the bytes are).
type Parts = (
    Vec<(String, String)>,
    Option<Vec<u8>>,
    Option<tokio::sync::OwnedSemaphorePermit>,
);

async fn parts(api: &Api, request: Request, limit: usize) -> Result<Parts, ApiError> {
    let boundary = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| multer::parse_boundary(v).ok())
        .ok_or_else(|| {
            ApiError::UnsupportedType(
                "the upload is not multipart/form-data".into(),
                "multipart/form-data with the form's fields and a part named file",
            )
        })?;
    let (head, body) = request.into_parts();
    let (bytes, held) =
        zdr_embed_page::form::read_limited(&head.headers, body, &super::rules(api, limit)).await?;
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
    // Fields after the file are read too (S3 ignores them): clients made
    // from the OpenAPI document send the optional fields last.
    while let Some(field) = multipart.next_field().await.map_err(malformed)? {
        let name = field.name().unwrap_or("").to_owned();
        if name == "file" {
            if file.is_some() {
                return Err(ApiError::invalid(
                    "file",
                    "the form has two parts named file",
                ));
            }
            file = Some(field.bytes().await.map_err(malformed)?.to_vec());
            continue;
        }
        let value = field.text().await.map_err(malformed)?;
        fields.push((name, value));
    }
    Ok((fields, file, held))
}

/// The form `file_upload_url` signs, as posted (multipart/form-data): its
/// `fields` unchanged, and the file (last, for a form that may go to a
/// bucket: S3 reads no field after the file; this host reads them all).
#[derive(serde::Deserialize, utoipa::ToSchema)]
#[allow(dead_code)] // documents the form `receive` reads field by field
pub(crate) struct UploadForm {
    key: String,
    #[serde(rename = "Content-Type")]
    content_type: String,
    policy: String,
    #[serde(rename = "x-amz-algorithm")]
    algorithm: String,
    #[serde(rename = "x-amz-credential")]
    credential: String,
    #[serde(rename = "x-amz-date")]
    date: String,
    #[serde(rename = "x-amz-signature")]
    signature: String,
    /// When the form has it.
    #[serde(rename = "x-amz-meta-display-name")]
    display_name: Option<String>,
    /// When the form has it.
    #[serde(rename = "x-amz-meta-file-context")]
    file_context: Option<String>,
    /// When the form has it.
    #[serde(rename = "x-amz-meta-source")]
    source: Option<String>,
    /// The file, last.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
}

/// 4.1 step 2: `POST /upload/`, as S3 takes a browser upload: 204.
#[utoipa::path(post, path = "/upload/", operation_id = "post_upload", tag = "files", security(()),
    description = "The presigned upload: the form of `file_upload_url` and the file. Its signed fields are its authority; no key.",
    request_body(content = UploadForm, content_type = "multipart/form-data"),
    responses((status = 204, description = "Stored"), (status = 400, body = crate::error::Body), (status = 403, description = "The form is not one this host signed, is changed or expired, or the file breaks its policy", body = crate::error::Body),
        (status = 413, body = crate::error::Body), (status = 415, body = crate::error::Body), (status = 422, description = "The file could not be read as its format", body = crate::error::Body)))]
pub async fn receive(State(api): State<Arc<Api>>, request: Request) -> Result<Response, ApiError> {
    let (fields, file, _held) = parts(&api, request, MAX_FILE + MAX_FORM_OVERHEAD).await?;
    files::receive(&api, &fields, file).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// 4.12 `GET files/{file_id}/`.
#[utoipa::path(get, path = "/api/v1/beta/files/{file_id}/", operation_id = "get_file", tag = "files", params(("file_id" = String, Path, description = "A file of this key")),
    responses((status = 200, body = DatasetFile), (status = 404, description = "No file of this key has this id", body = crate::error::Body)))]
pub async fn get(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    headers: HeaderMap,
    Path(file_id): Path<String>,
) -> Result<Json<DatasetFile>, ApiError> {
    let row = files::row(&api, &tenant, &file_id).await?;
    Ok(Json(files::dataset_file(&row, &api.base_url(&headers))))
}

/// A member that may be sent as a string, or as null to clear it.
fn clearable(
    body: &serde_json::Map<String, Value>,
    name: &'static str,
) -> Result<Option<Option<String>>, ApiError> {
    if !body.contains_key(name) {
        return Ok(None);
    }
    Ok(Some(fact(text(body, name)?, name)?))
}

/// What `PATCH files/{file_id}/` changes: each member sent, a string or null to clear it.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // documents the members `update` reads by name
pub(crate) struct FileChanges {
    display_name: Option<String>,
    file_context: Option<String>,
    source: Option<String>,
}

/// `PATCH files/{file_id}/` (the SDK's `files.update`): `display_name`,
/// `file_context` and `source`, each when sent; the file as it is now.
#[utoipa::path(patch, path = "/api/v1/beta/files/{file_id}/", operation_id = "update_file", tag = "files", params(("file_id" = String, Path, description = "A file of this key")), request_body = FileChanges,
    responses((status = 200, body = DatasetFile), (status = 400, body = crate::error::Body), (status = 404, body = crate::error::Body)))]
pub async fn update(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    headers: HeaderMap,
    Path(file_id): Path<String>,
    body: JsonBody,
) -> Result<Json<DatasetFile>, ApiError> {
    let body = &body.object;
    if let Some(other) = body
        .keys()
        .find(|k| !["display_name", "file_context", "source"].contains(&k.as_str()))
    {
        return Err(ApiError::invalid(
            "body",
            format!("{other} cannot be updated: only display_name, file_context and source can"),
        ));
    }
    let update = FileUpdate {
        display_name: clearable(body, "display_name")?,
        file_context: clearable(body, "file_context")?,
        source: clearable(body, "source")?,
    };
    let row = files::update(&api, &tenant, &file_id, update).await?;
    Ok(Json(files::dataset_file(&row, &api.base_url(&headers))))
}

/// `DELETE files/{file_id}/` (the SDK's `files.delete`): 204, and the file,
/// its cleaned table, its cards and their images are gone.
#[utoipa::path(delete, path = "/api/v1/beta/files/{file_id}/", operation_id = "delete_file", tag = "files", params(("file_id" = String, Path, description = "A file of this key")),
    responses((status = 204, description = "Deleted, with its cleaned table, its cards and their images"), (status = 404, body = crate::error::Body)))]
pub async fn delete(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Path(file_id): Path<String>,
) -> Result<StatusCode, ApiError> {
    files::delete(&api, &tenant, &file_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The cleaned table (`cleaned_files[].file_url`), as CSV.
#[utoipa::path(get, path = "/api/v1/beta/files/{file_id}/cleaned/", operation_id = "get_cleaned_file", tag = "files", params(("file_id" = String, Path, description = "A file of this key")),
    responses((status = 200, description = "The cleaned table", content_type = "text/csv", body = String), (status = 404, body = crate::error::Body)))]
pub async fn cleaned(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Path(file_id): Path<String>,
) -> Result<Response, ApiError> {
    let csv = files::cleaned(&api, &tenant, &file_id).await?;
    let mut response = csv.into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    Ok(response)
}

/// 4.2 `POST files`: the cards of a file. How the content reaches it is not
/// shown in the spec; here it comes either way:
///
/// - JSON `{"file_name": …}` names a file uploaded before (4.1): its `key`
///   (`<file_id>/<name>`), or its name, the newest upload of that name;
/// - `multipart/form-data` with `file_name` and a part `file` stores the
///   file first, as an upload is stored.
///
/// Either way the file may hold at most 100 KB (spec section 8).
#[utoipa::path(post, path = "/api/v1/beta/files", operation_id = "visualize_file", tag = "files",
    description = "4.2: the cards of a file, named by `file_name` (JSON: the key or the name of an upload), or sent with it (multipart: `file_name` and a part `file`). At most 100 KB.",
    request_body(content(
        (FileNamed = "application/json"),
        (FileSent = "multipart/form-data"),
    )),
    responses((status = 200, body = Results), (status = 400, body = crate::error::Body), (status = 404, body = crate::error::Body), (status = 413, body = crate::error::Body), (status = 415, body = crate::error::Body), (status = 422, body = crate::error::Body)))]
pub async fn post_files(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    headers: HeaderMap,
    request: Request,
) -> Result<Json<Results>, ApiError> {
    let base = api.base_url(&headers);
    let multipart = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| zdr_embed_page::form::media_type(v) == "multipart/form-data");
    let row = if multipart {
        let (fields, file, _held) = parts(&api, request, MAX_FILE + MAX_FORM_OVERHEAD).await?;
        let name = fields
            .iter()
            .find(|(n, _)| n == "file_name")
            .map(|(_, v)| v.clone())
            .ok_or_else(|| ApiError::invalid("file_name", "the form needs a file_name field"))?;
        let file = file.ok_or_else(|| ApiError::invalid("file", "the form has no file part"))?;
        if file.len() > MAX_FILE {
            return Err(ApiError::TooLarge {
                what: "the file".into(),
                limit: MAX_FILE,
            });
        }
        let name = files::clean_name(&name)?;
        let id = crate::ids::new_id("file");
        let content_type = format_of(&name).map_or("application/octet-stream", content_type_of);
        files::store_file(
            &api,
            &tenant,
            &id,
            &name,
            content_type,
            file,
            Stored::New(FileFacts::default()),
        )
        .await?
    } else {
        let body = JsonBody::from_request(request, &api).await?;
        let name = body
            .object
            .get("file_name")
            .and_then(Value::as_str)
            .filter(|n| !n.trim().is_empty())
            .ok_or_else(|| ApiError::invalid("file_name", "file_name is required: the key or the name of a file uploaded through file_upload_url"))?
            .to_owned();
        files::named(&api, &tenant, &name).await?
    };
    if row.size > MAX_FILE as i64 {
        return Err(ApiError::TooLarge {
            what: format!("the file {}", row.file_name),
            limit: MAX_FILE,
        });
    }
    let request = crate::model::visualize::VisualizeRequest {
        csv: Vec::new(),
        files: vec![crate::model::visualize::FileRef {
            file_id: row.file_id,
            file_context: None,
            private_index_id: None,
            segment_id: None,
        }],
        query: None,
        kind: None,
        dark: false,
        debug: false,
        thread_id: None,
        index: None,
        image_ttl_minutes: None,
    };
    Ok(Json(
        visualize::cards(&api, &tenant, &base, request, None).await?,
    ))
}

/// `POST files` naming a file uploaded before.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // documents the member `post_files` reads
pub(crate) struct FileNamed {
    /// The key (`<file_id>/<name>`) or the name of a file uploaded through `file_upload_url`.
    file_name: String,
}

/// `POST files` sending the file.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // documents the parts `post_files` reads
pub(crate) struct FileSent {
    file_name: String,
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
}

/// 4.4's body, as `connect` reads it.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // documents the members `connect` reads by name
pub(crate) struct ConnectBody {
    /// The http(s) URL of a .csv, .xls, .xlsx or .parquet file, at most 5 MB.
    file_url: String,
    /// A file of this key to replace.
    file_id: Option<String>,
    display_name: Option<String>,
    file_context: Option<String>,
    source: Option<String>,
    segment_id: Option<String>,
    /// A private index of this key to add the file to.
    connected_private_index_id: Option<String>,
    prepend_schema_context: Option<bool>,
    generate_ontology: Option<bool>,
    link_world_ontology: Option<bool>,
    extra_params: Option<String>,
}

/// 4.4 `POST file_connector`.
#[utoipa::path(post, path = "/api/v1/beta/file_connector", operation_id = "connect_file", tag = "files", request_body = ConnectBody,
    responses((status = 200, body = FileConnectorCreated), (status = 400, body = crate::error::Body), (status = 404, body = crate::error::Body), (status = 413, body = crate::error::Body), (status = 422, body = crate::error::Body)))]
pub async fn connect(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    body: JsonBody,
) -> Result<Json<FileConnectorCreated>, ApiError> {
    let body = &body.object;
    let file_url = text(body, "file_url")?.ok_or_else(|| {
        ApiError::invalid(
            "file_url",
            "file_url is required: the http(s) URL of a .csv, .xls, .xlsx or .parquet file",
        )
    })?;
    let request = Connect {
        file_url,
        file_id: text(body, "file_id")?,
        facts: FileFacts {
            display_name: fact(text(body, "display_name")?, "display_name")?,
            file_context: fact(text(body, "file_context")?, "file_context")?,
            source: fact(text(body, "source")?, "source")?,
        },
        segment_id: text(body, "segment_id")?,
        private_index: text(body, "connected_private_index_id")?,
        prepend_schema_context: flag(
            body,
            "prepend_schema_context",
            "prepend_schema_context",
            true,
        )?,
    };
    text(body, "extra_params")?;
    let generate_ontology = flag(body, "generate_ontology", "generate_ontology", true)?;
    flag(body, "link_world_ontology", "link_world_ontology", false)?;
    let (row, replaced) = files::connect_file(&api, &tenant, request).await?;
    let state = if generate_ontology {
        "schema"
    } else {
        "skipped"
    };
    Ok(Json(files::connected_answer(&row, replaced, state)))
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only this file.
    file_id: Option<String>,
}

/// `GET file_connector` (the SDK's `file_connector.list`): the key's files,
/// or the one of `file_id`.
#[utoipa::path(get, path = "/api/v1/beta/file_connector", operation_id = "list_connected_files", tag = "files", params(ListQuery),
    responses((status = 200, body = FileConnectorList), (status = 404, body = crate::error::Body)))]
pub async fn connector_list(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Query(query): Query<ListQuery>,
) -> Result<Json<FileConnectorList>, ApiError> {
    Ok(Json(
        files::list(&api, &tenant, query.file_id.as_deref()).await?,
    ))
}
