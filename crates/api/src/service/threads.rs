//! Threads (4.13–4.15): every `visualize` call with a `query`, and every
//! `knowledge_search`, starts a thread, or continues the one its
//! `thread_id` names (a member of this host's, beside the spec's). Each
//! call adds two messages: the user's query, and the answer with a block
//! per card. Threads keep the query, the answer's words and the cards' ids
//! and titles: never the data.
//!
//! Lists are the envelopes of 2.10, asked for with `limit` (1 to 100,
//! default 20) and `after` (the id of the last item of the page before):
//! threads newest first, messages in the order they were written.

use std::sync::Arc;

use time::OffsetDateTime;

use crate::ids::{is_id, new_id};
use crate::model::card::Outputs;
use crate::model::thread::{ContentBlock, Thread, ThreadMessage, ThreadMetadata};
use crate::model::List;
use crate::store::{MessageRow, ThreadRow};
use crate::{blocking, Api, ApiError, Tenant};

pub const LIMIT: u32 = 20;
pub const MAX_LIMIT: u32 = 100;
/// A thread's title: its first query, cut to this many characters.
const MAX_TITLE: usize = 200;

fn thread(row: &ThreadRow) -> Thread {
    Thread {
        thread_id: row.thread_id.clone(),
        created: row.created,
        object: "thread",
        title: row.title.clone(),
        description: None,
        metadata: serde_json::from_str(&row.metadata).unwrap_or_default(),
    }
}

fn message(thread_id: &str, row: &MessageRow) -> ThreadMessage {
    ThreadMessage {
        thread_id: thread_id.to_owned(),
        message_id: row.message_id.clone(),
        created: row.created,
        object: "thread.message",
        role: row.role.clone(),
        content: serde_json::from_str(&row.content).unwrap_or_default(),
    }
}

/// The thread of `id` for this key, or 404.
pub async fn find(api: &Arc<Api>, tenant: &Tenant, id: &str) -> Result<ThreadRow, ApiError> {
    let missing = || ApiError::ThreadNotFound(id.chars().take(64).collect());
    if !is_id(id) {
        return Err(missing());
    }
    let (t, i) = (tenant.clone(), id.to_owned());
    blocking(api, move |store| store.rows.thread(&t, &i))
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
    outputs: &Outputs,
) -> Result<String, ApiError> {
    let now = OffsetDateTime::now_utc().unix_timestamp();
    let thread = match thread {
        Some(thread) => thread,
        None => {
            let metadata = ThreadMetadata {
                endpoint: endpoint.to_owned(),
            };
            let row = ThreadRow {
                thread_id: new_id("thread"),
                created: now,
                title: Some(query.trim().chars().take(MAX_TITLE).collect()),
                metadata: serde_json::to_string(&metadata).map_err(ApiError::internal)?,
            };
            let (t, saved) = (tenant.clone(), row.clone());
            blocking(api, move |store| store.rows.create_thread(&t, &saved)).await?;
            row
        }
    };
    let mut answer = vec![ContentBlock::Text {
        text: outputs.answer.clone(),
    }];
    answer.extend(
        outputs
            .knowledge_cards
            .iter()
            .map(|card| ContentBlock::Visualization {
                card_id: card.card_id.clone(),
                title: card.title.clone(),
                card_type: card.card_type.to_owned(),
                embed_url: card.embed_url.clone(),
            }),
    );
    let asked = vec![ContentBlock::UserQuery {
        text: query.to_owned(),
    }];
    let messages = [
        MessageRow {
            message_id: new_id("msg"),
            created: now,
            role: "user".into(),
            content: serde_json::to_string(&asked).map_err(ApiError::internal)?,
        },
        MessageRow {
            message_id: new_id("msg"),
            created: now,
            role: "assistant".into(),
            content: serde_json::to_string(&answer).map_err(ApiError::internal)?,
        },
    ];
    let (t, id) = (tenant.clone(), thread.thread_id.clone());
    blocking(api, move |store| {
        store.rows.add_messages(&t, &id, &messages)
    })
    .await?;
    Ok(thread.thread_id)
}

/// A page's `limit` and `after`, checked.
pub struct Page {
    pub limit: u32,
    pub after: Option<String>,
}

impl Page {
    pub fn parse(limit: Option<&str>, after: Option<&str>) -> Result<Page, ApiError> {
        let limit = match limit.map(str::parse::<u32>) {
            None => LIMIT,
            Some(Ok(n)) if (1..=MAX_LIMIT).contains(&n) => n,
            Some(_) => {
                return Err(ApiError::invalid(
                    "limit",
                    format!("limit must be a whole number from 1 to {MAX_LIMIT}"),
                ))
            }
        };
        let after = match after {
            Some(after) if !is_id(after) => {
                return Err(ApiError::invalid(
                    "after",
                    "after must be the id of the last item of the page before",
                ))
            }
            after => after.map(str::to_owned),
        };
        Ok(Page { limit, after })
    }
}

/// 4.13: a page of the key's threads, newest first.
pub async fn threads(
    api: &Arc<Api>,
    tenant: &Tenant,
    page: Page,
) -> Result<List<Thread>, ApiError> {
    if let Some(after) = &page.after {
        find(api, tenant, after)
            .await
            .map_err(|_| ApiError::invalid("after", "after names no thread of this key"))?;
    }
    let t = tenant.clone();
    let (rows, more) = blocking(api, move |store| {
        store.rows.threads(&t, page.after.as_deref(), page.limit)
    })
    .await?;
    Ok(List::of(rows.iter().map(thread).collect(), more))
}

/// 4.14.
pub async fn one(api: &Arc<Api>, tenant: &Tenant, id: &str) -> Result<Thread, ApiError> {
    Ok(thread(&find(api, tenant, id).await?))
}

/// 4.15: a page of a thread's messages, in the order they were written.
pub async fn messages(
    api: &Arc<Api>,
    tenant: &Tenant,
    id: &str,
    page: Page,
) -> Result<List<ThreadMessage>, ApiError> {
    let found = find(api, tenant, id).await?;
    let (t, i, a) = (tenant.clone(), found.thread_id.clone(), page.after.clone());
    let (rows, more) = blocking(api, move |store| {
        store.rows.messages(&t, &i, a.as_deref(), page.limit)
    })
    .await?;
    if let Some(after) = page.after.filter(|_| rows.is_empty() && !more) {
        // An unknown cursor finds nothing; say so rather than an empty page.
        let (t, i) = (tenant.clone(), found.thread_id.clone());
        let known = blocking(api, move |store| store.rows.has_message(&t, &i, &after)).await?;
        if !known {
            return Err(ApiError::invalid(
                "after",
                "after names no message of this thread",
            ));
        }
    }
    Ok(List::of(
        rows.iter().map(|m| message(&found.thread_id, m)).collect(),
        more,
    ))
}
