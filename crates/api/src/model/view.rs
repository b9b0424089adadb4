//! Saved views (4.6; the way to make one is this host's).

use serde::Serialize;

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct SavedView {
    pub saved_view_id: String,
    pub saved_view_reference_id: Option<String>,
    pub schema_id: String,
    pub name: String,
    pub viz_component_type: String,
    pub query: Option<String>,
    pub created_at: String,
}

#[derive(Debug, Clone)]
pub struct NewSavedView {
    pub name: String,
    pub card_type: &'static str,
    pub schema_id: Option<String>,
    pub file_id: Option<String>,
    pub columns: Vec<String>,
    pub reference_id: Option<String>,
}
