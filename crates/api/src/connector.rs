//! Spec 4.4, `POST /api/v1/beta/file_connector`: the host downloads the
//! file at `file_url` ([`super::fetch`]: public addresses only unless the
//! operator allows others, redirects and time bounded, at most 5 MB), reads
//! it as a table and stores a copy, under a new file id or the one given.
//! Called again with an existing `file_id` and a new `file_url`, it
//! replaces the copy and keeps the id and its creation time.

use std::sync::Arc;

use axum::extract::State;
use axum::{Extension, Json};
use serde_json::{json, Value};

use super::body::{flag, text};
use super::fetch::FetchError;
use super::ids::{is_id, new_id};
use super::store::FileRow;
use super::table::{content_type_of, format_of};
use super::upload::store_file;
use super::{Api, ApiError, Tenant};

/// The connector's limit (spec section 8).
pub const MAX_CONNECTED: usize = 5 * 1024 * 1024;

/// 2.5: every member a string but `prepend_schema_context`.
pub fn metadata(row: &FileRow, ontology_state: &str) -> Value {
    json!({
        "id": row.file_id,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
        "source": row.source.clone().unwrap_or_default(),
        "schema_id": row.schema_id,
        "file_context": row.file_context.clone().unwrap_or_default(),
        "prepend_schema_context": row.prepend_schema_context,
        "segment_id": row.segment_id.clone().unwrap_or_default(),
        "ontology_state": ontology_state,
    })
}

/// What a client asks to connect: 4.4's body, or one entry of 4.7's `files`.
pub(super) struct Connect {
    pub file_url: String,
    pub file_id: Option<String>,
    pub source: Option<String>,
    pub file_context: Option<String>,
    pub segment_id: Option<String>,
    pub private_index: Option<String>,
    pub prepend_schema_context: bool,
}

pub async fn connect(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    body: super::extract::JsonBody,
) -> Result<Json<Value>, ApiError> {
    let body = &body.object;
    let file_url = text(body, "file_url")?.ok_or_else(|| {
        ApiError::invalid(
            "file_url",
            "file_url is required: the http(s) URL of a .csv file",
        )
    })?;
    let request = Connect {
        file_url,
        file_id: text(body, "file_id")?,
        source: text(body, "source")?,
        file_context: text(body, "file_context")?,
        segment_id: text(body, "segment_id")?,
        private_index: text(body, "connected_private_index_id")?,
        prepend_schema_context: flag(
            body,
            "prepend_schema_context",
            "prepend_schema_context",
            true,
        )?,
    };
    let generate_ontology = flag(body, "generate_ontology", "generate_ontology", true)?;
    flag(body, "link_world_ontology", "link_world_ontology", false)?;
    let (row, replaced) = connect_file(&api, &tenant, request).await?;
    let ontology_state = if generate_ontology {
        "schema"
    } else {
        "skipped"
    };
    let url = row.file_url.clone().unwrap_or_default();
    let message = if replaced {
        format!("file {} replaced by a new copy of {url}", row.file_id)
    } else {
        format!("file {} connected: a copy of {url} is stored", row.file_id)
    };
    Ok(Json(
        json!({"message": message, "id": row.file_id, "metadata": metadata(&row, ontology_state)}),
    ))
}

/// Downloads, reads and stores one file; true when it replaced the file of
/// the id given.
pub(super) async fn connect_file(
    api: &Arc<Api>,
    tenant: &Tenant,
    request: Connect,
) -> Result<(FileRow, bool), ApiError> {
    let Connect {
        file_url,
        file_id: given_id,
        source,
        file_context,
        segment_id,
        private_index,
        prepend_schema_context: prepend,
    } = request;
    let previous = match &given_id {
        Some(id) => {
            if !is_id(id) {
                return Err(ApiError::invalid(
                    "file_id",
                    "file_id must be 1 to 64 letters, digits, '_' or '-'",
                ));
            }
            super::files::row(api, tenant, id).await.ok()
        }
        None => None,
    };
    super::indexes::connected(api, tenant, private_index.as_deref()).await?;
    let file_id = given_id.unwrap_or_else(|| new_id("file"));

    let parsed = reqwest::Url::parse(&file_url)
        .map_err(|e| ApiError::invalid("file_url", format!("file_url is not a URL: {e}")))?;
    let name = parsed
        .path_segments()
        .and_then(|mut s| s.next_back())
        .map(|s| {
            s.chars()
                .filter(|c| c.is_ascii_alphanumeric() || "._-".contains(*c))
                .take(128)
                .collect::<String>()
        })
        .filter(|s| !s.is_empty() && !s.starts_with('.'))
        .unwrap_or_else(|| "file.csv".into());
    let format = format_of(&name).ok_or_else(|| {
        ApiError::invalid(
            "file_url",
            format!("{name}: the file's name must end in .csv, .xls, .xlsx or .parquet"),
        )
    })?;
    let (bytes, _, _held) = api
        .fetcher()?
        .get(&file_url, MAX_CONNECTED, &api.lanes.bodies)
        .await
        .map_err(|e| match e {
            FetchError::TooLarge(limit) => ApiError::TooLarge {
                what: "the file at file_url".into(),
                limit,
            },
            FetchError::Busy => ApiError::Busy,
            other => ApiError::invalid("file_url", other.to_string()),
        })?;
    let mut row = store_file(
        api,
        tenant,
        &file_id,
        &name,
        content_type_of(format),
        bytes,
        previous.clone(),
    )
    .await?;
    // The connector's own fields, as given now (a repeated call may change them).
    row.file_url = Some(file_url);
    row.source = source.or_else(|| previous.as_ref().and_then(|p| p.source.clone()));
    row.file_context =
        file_context.or_else(|| previous.as_ref().and_then(|p| p.file_context.clone()));
    row.segment_id = segment_id.or_else(|| previous.as_ref().and_then(|p| p.segment_id.clone()));
    row.private_index =
        private_index.or_else(|| previous.as_ref().and_then(|p| p.private_index.clone()));
    row.prepend_schema_context = prepend;
    let store = api.store()?;
    let (t, saved) = (tenant.clone(), row.clone());
    tokio::task::spawn_blocking(move || store.put_file(&t, &saved))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)?;
    Ok((row, previous.is_some()))
}
