//! Files: the presigned upload (4.1), the dataset file (2.6), the file
//! connector (2.5, 4.4) and its list, and a file's update.

use std::collections::BTreeMap;

use serde::Serialize;

/// `GET file_upload_url` (the SDK's `BetaGetFileUploadURLResponse`).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct FileUploadUrl {
    pub url: String,
    pub fields: BTreeMap<String, String>,
    pub key: String,
    /// The id the file is known by once it is uploaded (not in the spec;
    /// the service's documentation and both SDKs have it).
    pub file_id: String,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct SchemaRef {
    pub schema_id: String,
    pub display_name: String,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct CleanedFile {
    pub key: String,
    pub cleaned_file_id: String,
    pub cleaned_context: String,
    pub file_url: String,
    pub file_context: String,
    pub created_at: String,
    pub updated_at: String,
}

/// 2.6, as GET and PATCH of a file answer it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct DatasetFile {
    pub file_id: String,
    pub cleaned_files: Vec<CleanedFile>,
    pub cleaned: bool,
    pub last_updated_at: String,
    pub key: String,
    pub schema: SchemaRef,
    pub file_url: Option<String>,
    pub file_context: Option<String>,
    pub segment_id: Option<String>,
    pub source: Option<String>,
    pub connected_private_index: Option<String>,
}

/// 2.5: every member a string but `prepend_schema_context`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct FileConnectorMetadata {
    pub id: String,
    pub created_at: String,
    pub updated_at: String,
    pub source: String,
    pub schema_id: String,
    pub file_context: String,
    pub prepend_schema_context: bool,
    pub segment_id: String,
    pub ontology_state: String,
}

/// 4.4's answer.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct FileConnectorCreated {
    pub message: String,
    pub id: String,
    pub metadata: FileConnectorMetadata,
}

/// `GET file_connector` (the SDK's `FileConnectorListResponse`).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct FileConnectorList {
    pub files: Vec<FileConnectorMetadata>,
}

/// `PATCH files/{file_id}/`: only the members sent change.
#[derive(Debug, Clone, Default)]
pub struct FileUpdate {
    pub display_name: Option<Option<String>>,
    pub file_context: Option<Option<String>>,
    pub source: Option<Option<String>>,
}

/// What a caller may say of a file when it is uploaded or connected.
#[derive(Debug, Clone, Default)]
pub struct FileFacts {
    pub display_name: Option<String>,
    pub file_context: Option<String>,
    pub source: Option<String>,
}
