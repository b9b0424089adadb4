//! Threads (4.13–4.15) over HTTP.

use std::sync::Arc;

use axum::extract::State;
use axum::{Extension, Json};

use super::extract::{Path, Query};
use crate::model::thread::{Thread, ThreadMessage};
use crate::model::List;
use crate::service::threads::{self, Page};
use crate::{Api, ApiError, Tenant};

#[derive(serde::Deserialize)]
pub struct PageQuery {
    limit: Option<String>,
    after: Option<String>,
}

impl PageQuery {
    fn page(&self) -> Result<Page, ApiError> {
        Page::parse(self.limit.as_deref(), self.after.as_deref())
    }
}

/// 4.13.
pub async fn threads(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Query(query): Query<PageQuery>,
) -> Result<Json<List<Thread>>, ApiError> {
    Ok(Json(threads::threads(&api, &tenant, query.page()?).await?))
}

/// 4.14.
pub async fn thread(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
) -> Result<Json<Thread>, ApiError> {
    Ok(Json(threads::one(&api, &tenant, &id).await?))
}

/// 4.15.
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
