//! The API's requests and answers as typed values, named as the service's
//! OpenAPI description (and so its generated SDK, `tako-sdk` 1.x) names
//! them. Handlers turn requests into these and these into JSON; nothing of
//! an answer is built as free JSON or read back by a string key. What the
//! spec leaves open and the SDK shows (an upload's `file_id`, a card's
//! `relevance`) is here as the SDK has it.

pub mod card;
pub mod file;
pub mod index;
pub mod search;
pub mod thread;
pub mod view;
pub mod visualize;

use serde::Serialize;

/// The list envelope of threads, messages and saved views (spec 2.10).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct List<T> {
    pub object: &'static str,
    pub data: Vec<T>,
    pub has_more: bool,
}

impl<T> List<T> {
    pub fn of(data: Vec<T>, has_more: bool) -> List<T> {
        List {
            object: "list",
            data,
            has_more,
        }
    }
}
