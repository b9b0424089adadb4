//! What the files and the private indexes both need of an index: its row
//! for this key (another key's answers as one that does not exist), and its
//! ontology, written when files are added and written again without a file
//! that is deleted. Below both, so that neither calls the other back.

use std::sync::Arc;

use serde::Serialize;

use crate::ids::{is_id, now_rfc3339};
use crate::store::IndexRow;
use crate::{blocking, Api, ApiError, Tenant};

/// An index with no file, and one whose ontology is its files' schemas.
pub const EMPTY: &str = "empty";
pub const SCHEMA: &str = "schema";

/// The index of `id` for this key, or 404.
pub async fn find(api: &Arc<Api>, tenant: &Tenant, id: &str) -> Result<IndexRow, ApiError> {
    let missing = || ApiError::IndexNotFound(id.chars().take(64).collect());
    if !is_id(id) {
        return Err(missing());
    }
    let (t, i) = (tenant.clone(), id.to_owned());
    blocking(api, move |store| store.rows.index(&t, &i))
        .await?
        .ok_or_else(missing)
}

/// Whether `id` is a private index of this key (404 when not).
pub async fn exists(api: &Arc<Api>, tenant: &Tenant, id: &str) -> Result<(), ApiError> {
    find(api, tenant, id).await.map(|_| ())
}

/// `connected_private_index_id` (file_connector, visualize) must name an
/// index of this key; another key's answers as one that does not exist.
pub async fn connected(api: &Arc<Api>, tenant: &Tenant, id: Option<&str>) -> Result<(), ApiError> {
    match id {
        None => Ok(()),
        Some(id) => exists(api, tenant, id)
            .await
            .map_err(|_| ApiError::ConnectedIndexNotFound(id.chars().take(64).collect())),
    }
}

/// An index's ontology: the schemas of its files.
#[derive(Serialize)]
struct Ontology {
    index: String,
    elements: Vec<OntologyElement>,
}

#[derive(Serialize)]
struct OntologyElement {
    file_id: String,
    schema_id: String,
    schema: String,
}

/// Writes the index's ontology anew (the old one removed); its object.
pub async fn write_ontology(
    api: &Arc<Api>,
    tenant: &Tenant,
    index: &IndexRow,
) -> Result<String, ApiError> {
    let (t, i) = (tenant.clone(), index.id.clone());
    let files = blocking(api, move |store| store.rows.index_files(&t, &i)).await?;
    let document = Ontology {
        index: index.id.clone(),
        elements: files
            .into_iter()
            .map(|(file_id, schema_id, _, schema)| OntologyElement {
                file_id,
                schema_id,
                schema,
            })
            .collect(),
    };
    let text = serde_json::to_string(&document).map_err(ApiError::internal)?;
    let (t, old) = (tenant.clone(), index.kg_elements_key.clone());
    blocking(api, move |store| {
        let key = store.objects.put_object(&t, text.as_bytes())?;
        if let Some(old) = old {
            store.objects.delete_objects(&t, &[&old])?;
        }
        Ok(key)
    })
    .await
}

/// After a file of the index is deleted: its ontology made again without
/// it (none is left when the index has no file), so no trace of the file
/// stays in it.
pub async fn rebuild_ontology(api: &Arc<Api>, tenant: &Tenant, id: &str) -> Result<(), ApiError> {
    let Ok(mut index) = find(api, tenant, id).await else {
        return Ok(());
    };
    let Some(old) = index.kg_elements_key.clone() else {
        return Ok(());
    };
    let (t, i) = (tenant.clone(), index.id.clone());
    let left = blocking(api, move |store| store.rows.index_files(&t, &i)).await?;
    if left.is_empty() {
        let t = tenant.clone();
        blocking(api, move |store| store.objects.delete_objects(&t, &[&old])).await?;
        index.kg_elements_key = None;
        index.ontology_status = EMPTY.into();
    } else {
        index.kg_elements_key = Some(write_ontology(api, tenant, &index).await?);
    }
    index.updated_at = now_rfc3339();
    let (t, saved) = (tenant.clone(), index);
    blocking(api, move |store| store.rows.put_index(&t, &saved)).await
}
