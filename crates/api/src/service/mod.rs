//! The rules of the API, over typed values: what a file, a card, a search,
//! an index, a thread and a saved view are and do. Services read and write
//! through the [`crate::store::Store`] trait and send heavy work through the
//! host's admission ([`crate::work`]); they know nothing of HTTP.

pub mod cards;
pub mod files;
pub mod indexes;
pub mod ontology;
pub mod previews;
pub mod search;
pub mod threads;
pub mod views;
pub mod visualize;
