//! Spec 4.13–4.15, threads: every `visualize` call with a `query` (and
//! `knowledge_search`, once it answers) starts a thread, or continues the
//! one its `thread_id` names (a member of this host's, beside the spec's).
//! Each call adds two messages: the user's query, and the answer with a
//! block per card. Threads keep the query, the answer's words and the
//! cards' ids and titles: never the data.
//!
//! Lists are the envelopes of 2.10 (`object`, `data`, `has_more`), asked
//! for with `limit` (1 to 100, default 20) and `after` (the id of the last
//! item of the page before): threads newest first, messages in the order
//! they were written.

use std::sync::Arc;

use axum::extract::State;

use super::extract::{Path, Query};
use axum::{Extension, Json};
use serde_json::{json, Value};
use time::OffsetDateTime;

use super::ids::{is_id, new_id};
use super::store::{MessageRow, ThreadRow};
use super::{blocking, Api, ApiError, Tenant};

pub const LIMIT: u32 = 20;
pub const MAX_LIMIT: u32 = 100;
/// A thread's title: its first query, cut to this many characters.
const MAX_TITLE: usize = 200;

fn thread_object(row: &ThreadRow) -> Value {
    json!({
        "thread_id": row.thread_id,
        "created": row.created,
        "object": "thread",
        "title": row.title,
        "description": Value::Null,
        "metadata": serde_json::from_str::<Value>(&row.metadata).unwrap_or_else(|_| json!({})),
    })
}

fn message_object(thread_id: &str, row: &MessageRow) -> Value {
    json!({
        "thread_id": thread_id,
        "message_id": row.message_id,
        "created": row.created,
        "object": "thread.message",
        "role": row.role,
        "content": serde_json::from_str::<Value>(&row.content).unwrap_or_else(|_| json!([])),
    })
}

/// The thread of `id` for this key, or 404.
pub async fn find(api: &Arc<Api>, tenant: &Tenant, id: &str) -> Result<ThreadRow, ApiError> {
    let missing = || ApiError::ThreadNotFound(id.chars().take(64).collect());
    if !is_id(id) {
        return Err(missing());
    }
    let (t, i) = (tenant.clone(), id.to_owned());
    blocking(api, move |store| store.thread(&t, &i))
        .await?
        .ok_or_else(missing)
}

/// Records a call with a query: in `thread` (checked by the caller with
/// [`find`]) or a new one. The thread's id.
pub async fn record(
    api: &Arc<Api>,
    tenant: &Tenant,
    thread: Option<ThreadRow>,
    endpoint: &str,
    query: &str,
    outputs: &Value,
) -> Result<String, ApiError> {
    let now = OffsetDateTime::now_utc().unix_timestamp();
    let thread = match thread {
        Some(thread) => thread,
        None => {
            let row = ThreadRow {
                thread_id: new_id("thread"),
                created: now,
                title: Some(query.trim().chars().take(MAX_TITLE).collect()),
                metadata: json!({"endpoint": endpoint}).to_string(),
            };
            let (t, saved) = (tenant.clone(), row.clone());
            blocking(api, move |store| store.create_thread(&t, &saved)).await?;
            row
        }
    };
    let mut answer = vec![json!({"type": "text", "text": outputs["answer"]})];
    for card in outputs["knowledge_cards"].as_array().into_iter().flatten() {
        answer.push(json!({
            "type": "visualization",
            "card_id": card["card_id"],
            "title": card["title"],
            "card_type": card["card_type"],
            "embed_url": card["embed_url"],
        }));
    }
    let messages = [
        MessageRow {
            message_id: new_id("msg"),
            created: now,
            role: "user".into(),
            content: json!([{"type": "user_query", "text": query}]).to_string(),
        },
        MessageRow {
            message_id: new_id("msg"),
            created: now,
            role: "assistant".into(),
            content: Value::Array(answer).to_string(),
        },
    ];
    let (t, id) = (tenant.clone(), thread.thread_id.clone());
    blocking(api, move |store| store.add_messages(&t, &id, &messages)).await?;
    Ok(thread.thread_id)
}

#[derive(serde::Deserialize)]
pub struct Page {
    limit: Option<String>,
    after: Option<String>,
}

impl Page {
    fn limit(&self) -> Result<u32, ApiError> {
        match self.limit.as_deref().map(str::parse::<u32>) {
            None => Ok(LIMIT),
            Some(Ok(n)) if (1..=MAX_LIMIT).contains(&n) => Ok(n),
            Some(_) => Err(ApiError::invalid(
                "limit",
                format!("limit must be a whole number from 1 to {MAX_LIMIT}"),
            )),
        }
    }

    fn after(&self) -> Result<Option<String>, ApiError> {
        match &self.after {
            Some(after) if !is_id(after) => Err(ApiError::invalid(
                "after",
                "after must be the id of the last item of the page before",
            )),
            after => Ok(after.clone()),
        }
    }
}

fn list(data: Vec<Value>, has_more: bool) -> Json<Value> {
    Json(json!({"object": "list", "data": data, "has_more": has_more}))
}

/// 4.13 `GET /api/v1/threads`.
pub async fn threads(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Query(page): Query<Page>,
) -> Result<Json<Value>, ApiError> {
    let (limit, after) = (page.limit()?, page.after()?);
    if let Some(after) = &after {
        find(&api, &tenant, after)
            .await
            .map_err(|_| ApiError::invalid("after", "after names no thread of this key"))?;
    }
    let (rows, more) = blocking(&api, move |store| {
        store.threads(&tenant, after.as_deref(), limit)
    })
    .await?;
    Ok(list(rows.iter().map(thread_object).collect(), more))
}

/// 4.14 `GET /api/v1/threads/{thread_id}`.
pub async fn thread(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(thread_object(&find(&api, &tenant, &id).await?)))
}

/// 4.15 `GET /api/v1/threads/{thread_id}/messages`.
pub async fn messages(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
    Query(page): Query<Page>,
) -> Result<Json<Value>, ApiError> {
    let (limit, after) = (page.limit()?, page.after()?);
    let thread = find(&api, &tenant, &id).await?;
    let (t, i, a) = (tenant.clone(), thread.thread_id.clone(), after.clone());
    let (rows, more) = blocking(&api, move |store| {
        store.messages(&t, &i, a.as_deref(), limit)
    })
    .await?;
    if after.is_some() && rows.is_empty() && !more {
        // An unknown cursor finds nothing; say so rather than an empty page.
        let (t, i, a) = (tenant.clone(), thread.thread_id.clone(), after.clone());
        let known = blocking(&api, move |store| {
            store.has_message(&t, &i, a.as_deref().unwrap_or(""))
        })
        .await?;
        if !known {
            return Err(ApiError::invalid(
                "after",
                "after names no message of this thread",
            ));
        }
    }
    Ok(list(
        rows.iter()
            .map(|m| message_object(&thread.thread_id, m))
            .collect(),
        more,
    ))
}
