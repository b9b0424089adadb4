//! Threads (2.8, 2.9, 4.13–4.15).

use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Thread {
    pub thread_id: String,
    pub created: i64,
    pub object: &'static str,
    pub title: Option<String>,
    pub description: Option<String>,
    pub metadata: ThreadMetadata,
}

/// Which endpoint started the thread (the spec shows no metadata keys).
#[derive(Debug, Clone, Serialize, serde::Deserialize, Default, utoipa::ToSchema)]
pub struct ThreadMetadata {
    #[serde(default)]
    pub endpoint: String,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ThreadMessage {
    pub thread_id: String,
    pub message_id: String,
    pub created: i64,
    pub object: &'static str,
    pub role: String,
    pub content: Vec<ContentBlock>,
}

/// A block of a message: the user's query, the answer's text, or a card.
#[derive(Debug, Clone, Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentBlock {
    UserQuery {
        text: String,
    },
    Text {
        text: Option<String>,
    },
    Visualization {
        card_id: String,
        title: String,
        card_type: String,
        embed_url: String,
    },
    /// A block this host did not write (kept as it is).
    #[serde(untagged)]
    Other(Value),
}
