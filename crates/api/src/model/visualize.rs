//! `visualize` (4.5; the SDK's `VisualizeCreateParams`) and
//! `visualize_saved_view` (4.6).

use zdr_chart::model::CardKind;

/// An entry of `file_ids`: a file id, or the SDK's object form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRef {
    pub file_id: String,
    pub file_context: Option<String>,
    pub private_index_id: Option<String>,
    pub segment_id: Option<String>,
}

#[derive(Debug, Clone)]
pub struct VisualizeRequest {
    pub csv: Vec<String>,
    pub files: Vec<FileRef>,
    pub query: Option<String>,
    pub kind: Option<CardKind>,
    pub dark: bool,
    pub debug: bool,
    /// This host's member: the thread a call with a query continues.
    pub thread_id: Option<String>,
    /// `connected_private_index_id`: an index of this key, or the call is
    /// refused as if it did not exist.
    pub index: Option<String>,
    /// `image_ttl_minutes`: keep the pictures of cards kept nowhere else
    /// this long (`service::previews`).
    pub image_ttl_minutes: Option<u32>,
}

#[derive(Debug, Clone)]
pub struct SavedViewRequest {
    pub files: Vec<String>,
    pub view_id: Option<String>,
    pub reference_id: Option<String>,
    pub debug: bool,
}
