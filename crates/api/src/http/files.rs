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

#[derive(Deserialize)]
pub struct UploadQuery {
    file_name: Option<String>,
    display_name: Option<String>,
    file_context: Option<String>,
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

/// 4.1 step 2: `POST /upload/`, as S3 takes a browser upload: 204.
pub async fn receive(State(api): State<Arc<Api>>, request: Request) -> Result<Response, ApiError> {
    let (fields, file, _held) = parts(&api, request, MAX_FILE + MAX_FORM_OVERHEAD).await?;
    files::receive(&api, &fields, file).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// 4.12 `GET files/{file_id}/`.
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

/// `PATCH files/{file_id}/` (the SDK's `files.update`): `display_name`,
/// `file_context` and `source`, each when sent; the file as it is now.
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
pub async fn delete(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Path(file_id): Path<String>,
) -> Result<StatusCode, ApiError> {
    files::delete(&api, &tenant, &file_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The cleaned table (`cleaned_files[].file_url`), as CSV.
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

/// 4.4 `POST file_connector`.
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

#[derive(Deserialize)]
pub struct ListQuery {
    file_id: Option<String>,
}

/// `GET file_connector` (the SDK's `file_connector.list`): the key's files,
/// or the one of `file_id`.
pub async fn connector_list(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Query(query): Query<ListQuery>,
) -> Result<Json<FileConnectorList>, ApiError> {
    Ok(Json(
        files::list(&api, &tenant, query.file_id.as_deref()).await?,
    ))
}
