//! Knowledge cards and the envelope they come in (spec 2.1–2.4; the SDK's
//! `Results`, `Outputs`, `OutputsKnowledgeCard`).

use serde::Serialize;
use zdr_chart::Chart;

/// The index names a card may give (the SDK's answer types take `tako`,
/// `web`, `connected_data` and `tako_deep_v2`; the earlier 0.1.41 client
/// takes only the first, second and fourth). A card of the built-in
/// datasets names `tako`; a card of the caller's own data (a file, CSV
/// sent inline, a private index) names none, since no name both clients
/// read means "yours".
pub const BUILT_IN: &str = "tako";

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Source {
    pub source_name: String,
    pub source_description: String,
    pub source_index: &'static str,
    pub url: String,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Methodology {
    pub methodology_name: String,
    pub methodology_description: String,
}

/// A card as `knowledge_search`, `visualize` and `visualize_saved_view`
/// answer it: every field of 2.1, and the SDK's `relevance`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct KnowledgeCard {
    pub card_id: String,
    pub title: String,
    pub description: String,
    pub webpage_url: String,
    pub image_url: String,
    pub embed_url: String,
    pub sources: Vec<Source>,
    pub methodologies: Vec<Methodology>,
    pub source_indexes: Vec<&'static str>,
    pub card_type: &'static str,
    pub data_url: String,
    /// `high`, `medium` or `low` (the spec's field).
    pub confidence: &'static str,
    /// The same as the SDK spells it: `High`, `Medium` or `Low`.
    pub relevance: &'static str,
    /// Written once, as the reader reads it (`zdr_chart`'s writer).
    /// What the embed draws (spec 4.16): `viz_config` and `data`, as the JSON Schema schema/visualization_data.schema.json describes them.
    #[schema(value_type = Object)]
    pub visualization_data: Chart,
}

/// `outputs` of 2.4. `debug` is this host's, on `debug: true`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Outputs {
    pub knowledge_cards: Vec<KnowledgeCard>,
    pub answer: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub debug: Option<Debug>,
}

/// What `debug: true` adds: where the rules are, and each table's cards.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Debug {
    pub rules: &'static str,
    pub model: &'static str,
    pub cards: Vec<DebugEntry>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct DebugEntry {
    pub source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card_type: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub columns: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub saved_view_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_drawn: Option<String>,
    /// How the query was read (docs/service-api.md, "How a question is read").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan: Option<PlanView>,
}

/// A question's plan: the columns it reads, the rows it keeps, how it
/// summarises and orders them, and the card it became.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
pub struct PlanView {
    pub attributes: Vec<String>,
    pub measures: Vec<String>,
    pub dimensions: Vec<String>,
    pub time: Option<String>,
    pub grain: Option<&'static str>,
    pub filters: Vec<String>,
    pub aggregate: Option<&'static str>,
    pub sort: Option<&'static str>,
    /// `x` when the order is the x axis's ("from A to Z"), not the measure's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sort_by: Option<&'static str>,
    pub limit: Option<usize>,
    pub tasks: Vec<&'static str>,
    pub chart_word: Option<&'static str>,
    pub card_type: Option<&'static str>,
    pub ignored: Vec<String>,
    /// What the card drew where: the x axis's column and the grain of its
    /// dates, the columns of its values (none where rows are counted) and
    /// the group its colours stand for. Absent when no card was drawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x_grain: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
}

/// The envelope of 2.4 (the SDK's `Results`), and this host's members
/// beside it: the thread a call with a query was kept in, and the indexes
/// a search looked in.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Results {
    pub outputs: Outputs,
    pub request_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub searched_indexes: Option<Vec<String>>,
}
