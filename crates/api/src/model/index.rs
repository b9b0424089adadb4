//! Private indexes (2.7, 4.7–4.11).

use serde::Serialize;
use serde_json::Value;

use super::file::FileConnectorMetadata;

/// 2.7. The PUT and PATCH answers add the two bucket keys.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PrivateIndex {
    pub id: String,
    pub name: String,
    pub description: Option<String>,
    pub is_default: bool,
    pub created_at: String,
    pub updated_at: String,
    pub ontology_status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kg_elements_bucket_key: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_mapping_bucket_keys: Option<Option<Vec<String>>>,
}

/// The private index list of 2.10.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PrivateIndexList {
    pub results: Vec<PrivateIndex>,
    pub count: u64,
    pub next: Option<String>,
    pub previous: Option<String>,
}

/// 4.7's answer: the files added, and this host's list of the others.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct FilesAdded {
    pub message: String,
    pub files: Vec<FileConnectorMetadata>,
    pub failures: Vec<Failure>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Failure {
    pub index: usize,
    pub file_id: Option<Value>,
    pub file_url: Option<Value>,
    pub error: FailureError,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct FailureError {
    pub status: u16,
    pub code: &'static str,
    pub message: String,
}

/// One entry of 4.7's `files`.
#[derive(Debug, Clone)]
pub struct ConnectFile {
    pub file_url: Option<String>,
    pub file_id: Option<String>,
    pub file_context: Option<String>,
    pub source: Option<String>,
}
