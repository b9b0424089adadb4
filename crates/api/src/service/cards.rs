//! Cards: made from a table and a suggestion of the recommender, kept when
//! they come from stored data (a file, a built-in dataset), and drawn as an
//! image (`image_url`) or a page (`webpage_url`). A card's image and page
//! answer whoever has its address, as the service's do: card ids are 96
//! random bits, and both stop answering once the card's file is deleted.
//! Cards of CSV sent inline are never stored, and both say so, unless the
//! caller asked for a preview (`service::previews`).

use std::sync::Arc;

use zdr_chart::Chart;

use crate::ids::{new_id, now_rfc3339};
use crate::model::card::{KnowledgeCard, Methodology, Source as CardSource, BUILT_IN};
use crate::recommend::Suggestion;
use crate::store::CardRow;
use crate::table::Table;
use crate::work::{draw_memory, heavy};
use crate::{blocking, Api, ApiError, Tenant};

/// One table to draw from: where it came from, and the cleaned file's URL
/// for stored files.
pub struct Source {
    pub name: String,
    pub file_id: Option<String>,
    pub data_url: String,
    pub table: Table,
    /// Where a searched card came from, in words ("From the built-in
    /// dataset …"), and the built-in index it was found in.
    pub origin: Option<String>,
    pub builtin: Option<String>,
    /// What the file's owner said of it (`file_context`): its sentences
    /// "X means Y" are aliases for a question's words.
    pub context: Option<String>,
}

/// The card of `suggestion`, drawn from `source`. A card `kept` nowhere
/// (drawn from CSV sent inline) has an id that says so.
pub fn card(base: &str, source: &Source, suggestion: Suggestion, kept: bool) -> KnowledgeCard {
    let id = if kept {
        new_id("card")
    } else {
        crate::ids::new_unkept_card_id()
    };
    let origin = match (&source.origin, &source.file_id) {
        (Some(origin), _) => origin.clone(),
        (None, Some(file_id)) => format!("From the file {} ({file_id}).", source.name),
        (None, None) => "From CSV sent with the request; not stored.".to_owned(),
    };
    // The caller's own data have no source entry (see below): what the
    // table holds is said here instead.
    let origin = match &source.builtin {
        Some(_) => origin,
        None => format!("{origin} The data: {}.", source.table.context()),
    };
    // A built-in dataset's card names its index and source; a card of the
    // caller's own data names none (see `model::card::BUILT_IN`), and says
    // where it came from in its description and `data_url`.
    let (source_indexes, sources) = match &source.builtin {
        Some(_) => (
            vec![BUILT_IN],
            vec![CardSource {
                source_name: source.name.clone(),
                source_description: source.table.context(),
                source_index: BUILT_IN,
                url: source.data_url.clone(),
            }],
        ),
        None => (Vec::new(), Vec::new()),
    };
    let (confidence, relevance) = match suggestion.confidence {
        "high" => ("high", "High"),
        "medium" => ("medium", "Medium"),
        _ => ("low", "Low"),
    };
    KnowledgeCard {
        webpage_url: format!("{base}/card/{id}/"),
        image_url: format!("{base}/api/v1/image/{id}/"),
        embed_url: format!("{base}/embed/{id}/"),
        card_id: id,
        title: suggestion.title().to_owned(),
        description: format!("{} {origin}", suggestion.description),
        sources,
        methodologies: vec![Methodology {
            methodology_name: "Rule-based reading of the question".into(),
            methodology_description: "The question is read against the table's columns and values by documented rules, no language model (docs/service-api.md#how-a-question-is-read); without one, the card type follows from the columns' kinds and counts (docs/service-api.md#visualize). Flows are summed and rates averaged where rows are combined; filters apply before.".into(),
        }],
        source_indexes,
        card_type: suggestion.kind().as_str(),
        data_url: source.data_url.clone(),
        confidence,
        relevance,
        visualization_data: suggestion.chart,
    }
}

/// The row that keeps `card`, made from `file_id` (a file, or a built-in
/// dataset), so its page, image and embed answer later.
pub fn card_row(card: &KnowledgeCard, tenant: &Tenant, file_id: &str) -> Result<CardRow, ApiError> {
    // Stored as the text it is sent as: read back, the same chart.
    let visualization_data =
        serde_json::to_string(&card.visualization_data).map_err(ApiError::internal)?;
    Ok(CardRow {
        card_id: card.card_id.clone(),
        tenant: tenant.0.clone(),
        file_id: file_id.to_owned(),
        card_type: card.card_type.to_owned(),
        title: card.title.clone(),
        description: card.description.clone(),
        visualization_data,
        created_at: now_rfc3339(),
    })
}

/// Keeps cards' rows.
pub async fn keep(api: &Arc<Api>, rows: Vec<CardRow>) -> Result<(), ApiError> {
    if rows.is_empty() {
        return Ok(());
    }
    blocking(api, move |store| store.rows.put_cards(&rows)).await
}

/// Why there is no card: a card of CSV sent inline is never stored.
pub fn never_stored(card_id: &str) -> String {
    format!(
        "There is no stored card {card_id} on this host. Cards made from CSV sent inline to visualize are never stored (zero data retention), and a card whose file was deleted is gone with it: show one by posting its visualization_data to /embed/{card_id}/, as the widget does."
    )
}

/// Why a card drawn from data the service does not keep has no image or
/// page: 410 Gone.
pub fn not_kept(card_id: &str) -> String {
    format!(
        "Card {card_id} was drawn from data this service does not keep (CSV sent inline): zero data retention keeps nothing of it, its picture included, so it has no image or page here. Show it by posting its visualization_data to /embed/{card_id}/, as the widget does; or send image_ttl_minutes (1 to 1440) with visualize to keep the picture of its cards (not their data) for that long; or upload the file and visualize it by file_ids for a card that is kept."
    )
}

/// The error for a card id with no stored card: 410 for a card kept
/// nowhere, 404 for any other.
pub fn missing(card_id: &str) -> ApiError {
    let id: String = card_id.chars().take(64).collect();
    if crate::ids::is_unkept_card(&id) {
        ApiError::CardNotKept(not_kept(&id))
    } else {
        ApiError::CardNotFound(never_stored(&id))
    }
}

/// A stored card by its id alone (the id is its authority, as a shared
/// link's is); `None` for an id that is none of this host's.
pub async fn lookup(api: &Arc<Api>, card_id: &str) -> Result<Option<CardRow>, ApiError> {
    if !crate::ids::is_id(card_id) {
        return Ok(None);
    }
    let id = card_id.to_owned();
    blocking(api, move |store| store.rows.card(&id)).await
}

/// Sizes an image may be asked for, in CSS pixels.
pub const MIN_SIDE: u32 = 200;
pub const MAX_SIDE: u32 = 2400;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Picture {
    Png,
    Svg,
}

/// A card drawn as an image, through the host's admission.
pub async fn image(
    api: &Arc<Api>,
    card: CardRow,
    picture: Picture,
    size: (u32, u32),
    dark: Option<bool>,
) -> Result<Vec<u8>, ApiError> {
    draw(api, card.visualization_data, picture, size, dark).await
}

/// A card's `visualization_data` (JSON) drawn as an image, through the
/// host's admission.
pub async fn draw(
    api: &Arc<Api>,
    visualization_data: String,
    picture: Picture,
    (width, height): (u32, u32),
    dark: Option<bool>,
) -> Result<Vec<u8>, ApiError> {
    let (width, height) = (
        width.clamp(MIN_SIDE, MAX_SIDE),
        height.clamp(MIN_SIDE, MAX_SIDE),
    );
    let memory = draw_memory(visualization_data.len());
    heavy(api, memory, move |stop| {
        let chart = Chart::from_json(&visualization_data).map_err(ApiError::internal)?;
        stop.check().map_err(|_| ApiError::Deadline(0))?;
        let theme = chart.theme(dark);
        let scene = chart.scene(f64::from(width), f64::from(height), &theme, false);
        stop.check().map_err(|_| ApiError::Deadline(0))?;
        match picture {
            Picture::Png => zdr_chart::paint::png::write(&scene, 2.0).map_err(ApiError::internal),
            Picture::Svg => Ok(zdr_chart::paint::svg::write(&scene).into_bytes()),
        }
    })
    .await
}

/// A card drawn as the SVG of its page, through the host's admission.
pub async fn page_svg(api: &Arc<Api>, card: &CardRow) -> Result<String, ApiError> {
    let (data, memory) = (
        card.visualization_data.clone(),
        draw_memory(card.visualization_data.len()),
    );
    heavy(api, memory, move |_| {
        let chart = Chart::from_json(&data).map_err(ApiError::internal)?;
        let theme = chart.theme(Some(false));
        Ok(chart.to_svg(880, 540, &theme))
    })
    .await
}

/// One sentence listing the cards, for `outputs.answer`.
pub fn answer(names: &[String], cards: &[KnowledgeCard]) -> String {
    let titles: Vec<String> = cards
        .iter()
        .map(|c| format!("{} ({})", c.title, c.card_type))
        .collect();
    format!(
        "{} card{} from {}: {}.",
        cards.len(),
        if cards.len() == 1 { "" } else { "s" },
        names.join(", "),
        titles.join("; ")
    )
}
