//! Threads (4.13–4.15) over HTTP.

use std::sync::Arc;

use axum::extract::State;
use axum::{Extension, Json};

use super::extract::{Path, Query};
use crate::model::thread::{Thread, ThreadMessage};
use crate::model::List;
use crate::service::threads::{self, Page};
use crate::{Api, ApiError, Tenant};

#[derive(serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// How many, 1 to 100.
    #[param(value_type = Option<u64>)]
    limit: Option<String>,
    /// The id after which the page starts.
    after: Option<String>,
}

impl PageQuery {
    fn page(&self) -> Result<Page, ApiError> {
        Page::parse(self.limit.as_deref(), self.after.as_deref())
    }
}

/// 4.13.
#[utoipa::path(get, path = "/api/v1/threads", operation_id = "list_threads", tag = "threads", params(PageQuery),
    responses((status = 200, body = List<Thread>), (status = 400, body = crate::error::Body)))]
pub async fn threads(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Query(query): Query<PageQuery>,
) -> Result<Json<List<Thread>>, ApiError> {
    Ok(Json(threads::threads(&api, &tenant, query.page()?).await?))
}

/// 4.14.
#[utoipa::path(get, path = "/api/v1/threads/{thread_id}", operation_id = "get_thread", tag = "threads", params(("thread_id" = String, Path, description = "A thread of this key")),
    responses((status = 200, body = Thread), (status = 404, body = crate::error::Body)))]
pub async fn thread(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
) -> Result<Json<Thread>, ApiError> {
    Ok(Json(threads::one(&api, &tenant, &id).await?))
}

/// 4.15.
#[utoipa::path(get, path = "/api/v1/threads/{thread_id}/messages", operation_id = "list_thread_messages", tag = "threads", params(("thread_id" = String, Path, description = "A thread of this key"), PageQuery),
    responses((status = 200, body = List<ThreadMessage>), (status = 400, body = crate::error::Body), (status = 404, body = crate::error::Body)))]
pub async fn messages(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
    Query(query): Query<PageQuery>,
) -> Result<Json<List<ThreadMessage>>, ApiError> {
    Ok(Json(
        threads::messages(&api, &tenant, &id, query.page()?).await?,
    ))
}
