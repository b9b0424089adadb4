//! Saved views (4.6): a stored chart recipe for a schema, which card type
//! and which columns, applied to datasets of that schema by
//! `visualize_saved_view`. The spec shows no way to make one; this host's
//! is `POST /api/v1/beta/saved_views` (a view belongs to its key), and
//! `GET` lists them. A view's columns are named to the recommender as a
//! query names them, so a view of `["sales", "region"]` and `bar` draws
//! sales by region.

use std::sync::Arc;

use crate::ids::{new_id, now_rfc3339};
use crate::model::card::Results;
use crate::model::view::{NewSavedView, SavedView};
use crate::model::visualize::SavedViewRequest;
use crate::model::List;
use crate::store::{ViewOutcome, ViewRow};
use crate::{blocking, Api, ApiError, Tenant};

/// Views a key keeps at most.
pub const MAX_VIEWS: i64 = 1_000;

fn view(row: &ViewRow) -> SavedView {
    SavedView {
        saved_view_id: row.view_id.clone(),
        saved_view_reference_id: row.reference_id.clone(),
        schema_id: row.schema_id.clone(),
        name: row.name.clone(),
        viz_component_type: row.card_type.clone(),
        query: row.query.clone(),
        created_at: row.created_at.clone(),
    }
}

pub async fn create(
    api: &Arc<Api>,
    tenant: &Tenant,
    new: NewSavedView,
) -> Result<SavedView, ApiError> {
    let schema_id = match (new.schema_id, new.file_id) {
        (Some(schema), _) => schema,
        (None, Some(file_id)) => super::files::row(api, tenant, &file_id).await?.schema_id,
        (None, None) => {
            return Err(ApiError::invalid(
                "schema_id",
                "schema_id (or file_id, for its file's schema) is required",
            ))
        }
    };
    let row = ViewRow {
        view_id: new_id("view"),
        reference_id: new.reference_id,
        schema_id,
        name: new.name,
        card_type: new.card_type.to_owned(),
        query: (!new.columns.is_empty()).then(|| new.columns.join(" by ")),
        created_at: now_rfc3339(),
    };
    let (t, saved) = (tenant.clone(), row.clone());
    match blocking(api, move |store| {
        store.rows.create_view(&t, &saved, MAX_VIEWS)
    })
    .await?
    {
        ViewOutcome::Stored => Ok(view(&row)),
        ViewOutcome::ReferenceTaken => Err(ApiError::invalid(
            "saved_view_reference_id",
            "another saved view of this key has this saved_view_reference_id",
        )),
        ViewOutcome::TooMany => Err(ApiError::invalid(
            "body",
            format!("this key has {MAX_VIEWS} saved views, the most it can keep"),
        )),
    }
}

async fn rows(
    api: &Arc<Api>,
    tenant: &Tenant,
    view_id: Option<String>,
    reference_id: Option<String>,
) -> Result<Vec<ViewRow>, ApiError> {
    let t = tenant.clone();
    blocking(api, move |store| {
        store
            .rows
            .views(&t, view_id.as_deref(), reference_id.as_deref())
    })
    .await
}

/// The key's views, oldest first.
pub async fn list(api: &Arc<Api>, tenant: &Tenant) -> Result<List<SavedView>, ApiError> {
    let rows = rows(api, tenant, None, None).await?;
    Ok(List::of(rows.iter().map(view).collect(), false))
}

/// 4.6: every view of each file's schema, or the one asked for.
pub async fn apply(
    api: &Arc<Api>,
    tenant: &Tenant,
    base: &str,
    request: SavedViewRequest,
) -> Result<Results, ApiError> {
    let chosen = if request.view_id.is_some() {
        Some("saved_view_id")
    } else if request.reference_id.is_some() {
        Some("saved_view_reference_id")
    } else {
        None
    };
    let views = rows(api, tenant, request.view_id, request.reference_id).await?;
    if let (Some(param), true) = (chosen, views.is_empty()) {
        return Err(ApiError::invalid(
            param,
            "no saved view of this key has this id",
        ));
    }
    let none = views.is_empty();
    let mut results =
        super::visualize::of_views(api, tenant, base, request.files, views, request.debug).await?;
    if results.outputs.knowledge_cards.is_empty() {
        results.outputs.answer = Some(if none {
            "This key has no saved views: make one with POST /api/v1/beta/saved_views.".into()
        } else {
            "No saved view draws these files: none is for their schema, or their columns do not fit it (see debug).".into()
        });
    }
    Ok(results)
}
