//! A card: its settings and its data, read and checked. Drawing
//! (`crate::layout`) and describing (`crate::describe`) both start here
//! and know nothing of each other. Only the struct is here, below every
//! kind: reading a chart, laying it out and describing it end in a kind,
//! so those entries are `impl` blocks in `crate::kinds`.

use super::{Card, CardKind, VizConfig};

/// A card ready to draw or describe.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    pub config: VizConfig,
    pub kind: CardKind,
    pub card: Card,
}
