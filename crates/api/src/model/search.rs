//! `knowledge_search` (4.3; the SDK's `SearchCreateParams`).

/// An entry of `source_indexes`: a name, or an object naming a segment or
/// a private index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceIndex {
    /// The built-in datasets (`tako`; `tako_deep_v2` is the same here).
    Tako,
    /// One built-in segment (`{"index_type": "tako", "segment_id": …}`, or
    /// the segment's bare name as this host took it before).
    Segment(String),
    /// The key's files and private indexes (`connected_data`).
    ConnectedData,
    /// One private index of the key (`{"private_index_id": …}`, or its
    /// bare id).
    Private(String),
    /// The key's files of one segment (`{"index_type": "connected_data",
    /// "segment_id": …}`).
    FileSegment(String),
    /// The web (`web`, `web_pipeline`, `tako_llm_hydrate`): this host has
    /// none, and says so in its answer.
    Web(String),
}

/// `search_effort`: recorded, and nothing else here (no model runs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchEffort {
    Fast,
    Medium,
    Deep,
    Auto,
}

impl SearchEffort {
    pub fn parse(text: &str) -> Option<SearchEffort> {
        Some(match text {
            "fast" => SearchEffort::Fast,
            "medium" => SearchEffort::Medium,
            "deep" => SearchEffort::Deep,
            "auto" => SearchEffort::Auto,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone)]
pub struct SearchRequest {
    /// `inputs.text`, else `inputs.question`.
    pub query: String,
    /// `inputs.count`: cards at most.
    pub count: Option<usize>,
    /// `inputs.x_file_source_ids`: the key's files to search first.
    pub files: Vec<String>,
    /// In priority order; empty means the key's own data, then the
    /// built-in datasets.
    pub indexes: Vec<SourceIndex>,
    pub dark: bool,
    pub country: String,
    pub locale: &'static str,
    pub effort: Option<SearchEffort>,
    pub thread_id: Option<String>,
    /// This host's `debug`: how the question was read, as `visualize`
    /// answers it.
    pub debug: bool,
    /// `image_ttl_minutes`, as `visualize` takes it.
    pub image_ttl_minutes: Option<u32>,
}
