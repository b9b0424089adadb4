//! Private indexes (4.7–4.11): create, list (the paginated envelope of
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

use super::files::{connect_file, metadata, Connect};
use super::ontology::{find, write_ontology, EMPTY, SCHEMA};
use crate::ids::now_rfc3339;
use crate::model::file::FileFacts;
use crate::model::index::{
    ConnectFile, Failure, FailureError, FilesAdded, PrivateIndex, PrivateIndexList,
};
use crate::store::{FileRow, IndexRow};

pub use super::ontology::{connected, exists};
use crate::{blocking, Api, ApiError, Tenant};

/// Indexes a page lists when `page_size` is not given, and at most.
pub const PAGE_SIZE: u64 = 20;
pub const MAX_PAGE_SIZE: u64 = 100;
/// Files one call of 4.7 adds at most (each may be a 5 MB download).
pub const MAX_BATCH: usize = 20;
pub const MAX_NAME: usize = 200;
pub const MAX_DESCRIPTION: usize = 2_000;

const SKIPPED: &str = "skipped";

/// 2.7 as create and list answer it.
fn summary(row: &IndexRow) -> PrivateIndex {
    PrivateIndex {
        id: row.id.clone(),
        name: row.name.clone(),
        description: row.description.clone(),
        is_default: row.is_default,
        created_at: row.created_at.clone(),
        updated_at: row.updated_at.clone(),
        ontology_status: row.ontology_status.clone(),
        kg_elements_bucket_key: None,
        data_mapping_bucket_keys: None,
    }
}

/// 2.7 complete, as PUT and PATCH answer it: with the ontology's key and the
/// keys of the index's cleaned tables (null while it has none).
async fn complete(
    api: &Arc<Api>,
    tenant: &Tenant,
    row: &IndexRow,
) -> Result<PrivateIndex, ApiError> {
    let (t, id) = (tenant.clone(), row.id.clone());
    let files = blocking(api, move |store| store.rows.index_files(&t, &id)).await?;
    let keys: Vec<String> = files.into_iter().map(|(_, _, key, _)| key).collect();
    let mut index = summary(row);
    index.kg_elements_bucket_key = Some(row.kg_elements_key.clone());
    index.data_mapping_bucket_keys = Some((!keys.is_empty()).then_some(keys));
    Ok(index)
}

/// 4.10.
pub async fn create(
    api: &Arc<Api>,
    tenant: &Tenant,
    name: String,
    description: Option<String>,
) -> Result<PrivateIndex, ApiError> {
    let t = tenant.clone();
    let row = blocking(api, move |store| {
        store
            .rows
            .create_index(&t, &name, description.as_deref(), EMPTY)
    })
    .await?;
    Ok(summary(&row))
}

/// 4.11: page `page` (from 1) of `size`, oldest first; `next` and
/// `previous` are the addresses of the neighbouring pages, null at the
/// ends. A page past the last is empty.
pub async fn list(
    api: &Arc<Api>,
    tenant: &Tenant,
    base: &str,
    page: u64,
    size: u64,
) -> Result<PrivateIndexList, ApiError> {
    let offset = (page - 1).saturating_mul(size);
    let t = tenant.clone();
    let (rows, count) = blocking(api, move |store| store.rows.indexes(&t, offset, size)).await?;
    let at =
        |page: u64| format!("{base}/api/v1/beta/private_indexes/?page={page}&page_size={size}");
    let pages = count.div_ceil(size).max(1);
    Ok(PrivateIndexList {
        results: rows.iter().map(summary).collect(),
        count,
        next: (page < pages).then(|| at(page + 1)),
        previous: (page > 1).then(|| at((page - 1).min(pages))),
    })
}

/// 4.8, 4.9: the name and the description, each when given (`PUT` gives
/// both, an absent description as null).
pub async fn update(
    api: &Arc<Api>,
    tenant: &Tenant,
    id: &str,
    name: Option<String>,
    description: Option<Option<String>>,
) -> Result<PrivateIndex, ApiError> {
    let mut row = find(api, tenant, id).await?;
    if let Some(name) = name {
        row.name = name;
    }
    if let Some(description) = description {
        row.description = description;
    }
    row.updated_at = now_rfc3339();
    let (t, saved) = (tenant.clone(), row.clone());
    blocking(api, move |store| store.rows.put_index(&t, &saved)).await?;
    complete(api, tenant, &row).await
}

/// One entry of 4.7's `files`, added: from its URL (connected as 4.4
/// does), else the existing file of its `file_id`.
async fn add_one(
    api: &Arc<Api>,
    tenant: &Tenant,
    index: &str,
    entry: ConnectFile,
) -> Result<FileRow, ApiError> {
    match (entry.file_url, entry.file_id) {
        (Some(file_url), file_id) => {
            let request = Connect {
                file_url,
                file_id,
                facts: FileFacts {
                    display_name: None,
                    file_context: entry.file_context,
                    source: entry.source,
                },
                segment_id: None,
                private_index: Some(index.to_owned()),
                prepend_schema_context: true,
            };
            Ok(connect_file(api, tenant, request).await?.0)
        }
        (None, Some(file_id)) => {
            let mut row = super::files::row(api, tenant, &file_id).await?;
            row.private_index = Some(index.to_owned());
            row.file_context = entry.file_context.or(row.file_context);
            row.source = entry.source.or(row.source);
            row.updated_at = now_rfc3339();
            let (t, saved) = (tenant.clone(), row.clone());
            blocking(api, move |store| store.rows.put_file(&t, &saved)).await?;
            Ok(row)
        }
        (None, None) => Err(ApiError::invalid(
            "files",
            "each entry of files needs file_url (a file to connect) or file_id (a file of this key)",
        )),
    }
}

/// 4.7: `entries` (each a file or what was wrong with it) added to the
/// index of `id`, its ontology made again when `generate`.
pub async fn add_files(
    api: &Arc<Api>,
    tenant: &Tenant,
    id: &str,
    entries: Vec<Result<ConnectFile, Box<Failure>>>,
    generate: bool,
    link: bool,
) -> Result<FilesAdded, ApiError> {
    let mut index = find(api, tenant, id).await?;
    let state = if generate { SCHEMA } else { SKIPPED };
    let total = entries.len();
    let mut added = Vec::new();
    let mut failures = Vec::new();
    for (at, entry) in entries.into_iter().enumerate() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(failure) => {
                failures.push(*failure);
                continue;
            }
        };
        let (file_id, file_url) = (entry.file_id.clone(), entry.file_url.clone());
        match add_one(api, tenant, &index.id, entry).await {
            Ok(row) => added.push(metadata(&row, state)),
            Err(error) => failures.push(Failure {
                index: at,
                file_id: file_id.map(Into::into),
                file_url: file_url.map(Into::into),
                error: FailureError {
                    status: error.status().as_u16(),
                    code: error.code(),
                    message: error.to_string(),
                },
            }),
        }
    }
    if added.is_empty() {
        let first = failures
            .first()
            .map(|f| f.error.message.clone())
            .unwrap_or_default();
        return Err(ApiError::invalid(
            "files",
            format!("no file could be added; the first: {first}"),
        ));
    }
    index.link_world_ontology |= link;
    if generate {
        index.kg_elements_key = Some(write_ontology(api, tenant, &index).await?);
        index.ontology_status = SCHEMA.into();
    } else if index.ontology_status == EMPTY {
        index.ontology_status = SKIPPED.into();
    }
    index.updated_at = now_rfc3339();
    let (t, saved) = (tenant.clone(), index.clone());
    blocking(api, move |store| store.rows.put_index(&t, &saved)).await?;
    let mut message = format!(
        "{} of {total} files added to private index {}",
        added.len(),
        index.id
    );
    if !failures.is_empty() {
        message.push_str("; see failures for the others");
    }
    Ok(FilesAdded {
        message,
        files: added,
        failures,
    })
}
