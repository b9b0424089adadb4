//! Spec 4.5, `POST /api/v1/beta/visualize`: cards from CSV sent inline or
//! from stored files, chosen by the recommender ([`super::recommend`]). Inline
//! CSV is read in memory and never written anywhere; a card from it keeps
//! only its id and title, so its page can say the data were never stored.
//! No language model runs here: `model` is checked and recorded, and the
//! query steers documented rules.

use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::{Extension, Json};
use serde_json::{json, Map, Value};
use zdr_chart::model::CardKind;
use zdr_chart::Chart;

use super::body::{flag, string_list, text};
use super::files::row;
use super::ids::{new_id, now_rfc3339};
use super::recommend::{suggest, Suggestion};
use super::store::CardRow;
use super::table::{read_csv, Table, TableError};
use super::work::{heavy, table_memory};
use super::{blocking, Api, ApiError, Tenant, MAX_FILE};

/// `model` values of the spec.
pub const MODELS: [&str; 9] = [
    "o3",
    "o4-mini",
    "gpt-5-mini",
    "qwen-3-32b",
    "llama-3.3-70b",
    "qwen-3-coder-480b",
    "qwen-3-235b-a22b-instruct-2507",
    "qwen-3-235b-a22b-thinking-2507",
    "gpt-oss-120b",
];

/// Tables per request at most (CSV strings and file ids together).
pub const MAX_TABLES: usize = 10;

/// The request, checked field by field so an error names its field.
struct Request {
    csv: Vec<String>,
    file_ids: Vec<String>,
    query: Option<String>,
    kind: Option<CardKind>,
    dark: bool,
    debug: bool,
    /// This host's member: the thread a call with a query continues.
    thread_id: Option<String>,
    /// Saved views to apply instead of the recommender's choice (4.6).
    views: Option<Vec<super::store::ViewRow>>,
    /// `connected_private_index_id`: an index of this key, or the call is
    /// refused as if it did not exist.
    index: Option<String>,
}

fn parse(body: &Map<String, Value>) -> Result<Request, ApiError> {
    let csv = string_list(body, "csv")?;
    let mut file_ids = string_list(body, "file_ids")?;
    // Deprecated, still read: the same as one entry of file_ids.
    if let Some(id) = text(body, "file_id")? {
        if !file_ids.contains(&id) {
            file_ids.insert(0, id);
        }
    }
    if csv.is_empty() && file_ids.is_empty() {
        return Err(ApiError::invalid(
            "csv",
            "send csv (CSV texts) or file_ids (files uploaded or connected before)",
        ));
    }
    if csv.len() + file_ids.len() > MAX_TABLES {
        return Err(ApiError::invalid(
            "file_ids",
            format!("at most {MAX_TABLES} tables (csv and file_ids together) per request"),
        ));
    }
    let kind = match text(body, "viz_component_type")? {
        None => None,
        Some(name) => Some(CardKind::from_name(&name).ok_or_else(|| {
            ApiError::invalid(
                "viz_component_type",
                format!("viz_component_type must be one of {}", CardKind::list()),
            )
        })?),
    };
    if let Some(model) = text(body, "model")? {
        if !MODELS.contains(&model.as_str()) {
            return Err(ApiError::invalid(
                "model",
                format!("model must be one of {}", MODELS.join(", ")),
            ));
        }
    }
    for name in ["segment_id", "extra_params"] {
        text(body, name)?;
    }
    let index = text(body, "connected_private_index_id")?;
    let dark = super::body::image_dark_mode(body)?;
    Ok(Request {
        csv,
        file_ids,
        query: text(body, "query")?,
        kind,
        dark,
        debug: flag(body, "debug", "debug", false)?,
        thread_id: text(body, "thread_id")?,
        views: None,
        index,
    })
}

/// One table to draw from: where it came from, and the cleaned file's URL
/// for stored files.
pub(super) struct Source {
    pub name: String,
    pub file_id: Option<String>,
    pub data_url: String,
    pub table: Table,
    /// Where a searched card came from, in words ("From the built-in
    /// dataset …"), and the index it was found in.
    pub origin: Option<String>,
    pub index: Option<String>,
}

pub async fn visualize(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    headers: HeaderMap,
    body: super::extract::JsonBody,
) -> Result<Json<Value>, ApiError> {
    let request = parse(&body.object)?;
    // A call with a query starts a thread, or continues the one named.
    let query = request.query.clone().filter(|q| !q.trim().is_empty());
    let thread = match &request.thread_id {
        Some(id) => Some(super::threads::find(&api, &tenant, id).await?),
        None => None,
    };
    let mut answer = envelope(&api, &tenant, &api.base_url(&headers), request).await?;
    if let Some(query) = query {
        let id = super::threads::record(
            &api,
            &tenant,
            thread,
            "visualize",
            &query,
            &answer["outputs"],
        )
        .await?;
        answer["thread_id"] = Value::String(id);
    }
    Ok(Json(answer))
}

/// The cards of one stored file, as `POST files` answers (4.2).
pub async fn of_file(
    api: &Arc<Api>,
    tenant: &Tenant,
    base: &str,
    file_id: String,
) -> Result<Value, ApiError> {
    let request = Request {
        csv: Vec::new(),
        file_ids: vec![file_id],
        query: None,
        kind: None,
        dark: false,
        debug: false,
        thread_id: None,
        views: None,
        index: None,
    };
    envelope(api, tenant, base, request).await
}

/// 4.6: the cards of `views` for the stored files `file_ids`, each file
/// drawn by the views of its schema.
pub async fn of_views(
    api: &Arc<Api>,
    tenant: &Tenant,
    base: &str,
    file_ids: Vec<String>,
    views: Vec<super::store::ViewRow>,
    debug: bool,
) -> Result<Value, ApiError> {
    let request = Request {
        csv: Vec::new(),
        file_ids,
        query: None,
        kind: None,
        dark: false,
        debug,
        thread_id: None,
        views: Some(views),
        index: None,
    };
    envelope(api, tenant, base, request).await
}

/// What the cards of one request are made of, as it goes.
#[derive(Default)]
struct Made {
    cards: Vec<Value>,
    stored: Vec<CardRow>,
    debug: Vec<Value>,
    names: Vec<String>,
}

/// The 2.4 envelope of the cards for `request`. The tables are read and
/// drawn one at a time, in one piece of heavy work through the host's
/// admission, reckoned at the largest of them.
async fn envelope(
    api: &Arc<Api>,
    tenant: &Tenant,
    base: &str,
    request: Request,
) -> Result<Value, ApiError> {
    let mut largest = 0usize;
    for (i, text) in request.csv.iter().enumerate() {
        if text.len() > MAX_FILE {
            return Err(ApiError::TooLarge {
                what: format!("csv[{i}]"),
                limit: MAX_FILE,
            });
        }
        largest = largest.max(text.len());
    }
    let mut files = Vec::new();
    for id in &request.file_ids {
        let file = row(api, tenant, id).await?;
        let (t, object) = (tenant.clone(), file.cleaned_object.clone());
        let size = blocking(api, move |store| store.object_len(&t, &object)).await?;
        largest = largest.max(usize::try_from(size).unwrap_or(usize::MAX));
        files.push(file);
    }
    super::indexes::connected(api, tenant, request.index.as_deref()).await?;
    let store = api.store()?;
    let (t, b) = (tenant.clone(), base.to_owned());
    let debugging = request.debug;
    let made = heavy(api, table_memory(largest), move |stop| {
        let mut made = Made::default();
        for (i, text) in request.csv.iter().enumerate() {
            let table = read_csv(text.as_bytes(), stop).map_err(|e| match e {
                TableError::Stopped(_) => ApiError::Deadline(0),
                other => ApiError::invalid("csv", format!("csv[{i}]: {other}")),
            })?;
            let source = Source {
                name: format!("CSV {}", i + 1),
                file_id: None,
                data_url: String::new(),
                table,
                origin: None,
                index: None,
            };
            cards_of(&source, &request, &t, &b, &mut made)?;
        }
        for file in files {
            let bytes = store
                .object(&t, &file.cleaned_object)
                .map_err(ApiError::internal)?;
            let table = read_csv(&bytes, stop).map_err(|e| match e {
                TableError::Stopped(_) => ApiError::Deadline(0),
                other => ApiError::internal(other),
            })?;
            drop(bytes);
            let source = Source {
                name: file.file_name.clone(),
                data_url: format!("{b}/api/v1/beta/files/{}/cleaned/", file.file_id),
                file_id: Some(file.file_id),
                table,
                origin: None,
                index: None,
            };
            cards_of(&source, &request, &t, &b, &mut made)?;
            stop.check().map_err(|_| ApiError::Deadline(0))?;
        }
        Ok(made)
    })
    .await?;
    let Made {
        cards,
        stored,
        debug,
        names,
    } = made;
    if !stored.is_empty() {
        blocking(api, move |store| store.put_cards(&stored)).await?;
    }
    let answer = answer(&names, &cards);
    let mut outputs = json!({"knowledge_cards": cards, "answer": answer});
    if debugging {
        outputs["debug"] = json!({
            "rules": "docs/service-api.md#visualize",
            "model": "none: a rule-based recommender answers",
            "cards": debug,
        });
    }
    Ok(json!({"outputs": outputs, "request_id": new_id("req")}))
}

/// The cards of one table, added to `made`.
fn cards_of(
    source: &Source,
    request: &Request,
    tenant: &Tenant,
    base: &str,
    made: &mut Made,
) -> Result<(), ApiError> {
    made.names.push(source.name.clone());
    let suggestions = match &request.views {
        None => suggest(
            &source.table,
            &source.name,
            request.query.as_deref(),
            request.kind,
            request.dark,
        )
        .map_err(|reason| {
            ApiError::invalid("viz_component_type", format!("{}: {reason}", source.name))
        })?,
        Some(views) => {
            // The views of this table's schema, each a card when the
            // data can be drawn so (else said in debug).
            let schema = source.table.schema_id();
            let mut found = Vec::new();
            for view in views.iter().filter(|v| v.schema_id == schema) {
                let kind = CardKind::from_name(&view.card_type);
                match suggest(&source.table, &source.name, view.query.as_deref(), kind, request.dark) {
                    Ok(cards) => found.extend(cards.into_iter().map(|mut s| {
                        s.title = view.name.clone();
                        s
                    })),
                    Err(reason) => made.debug.push(
                        json!({"source": source.name, "saved_view_id": view.view_id, "not_drawn": reason}),
                    ),
                }
            }
            found
        }
    };
    for suggestion in suggestions {
        let text = suggestion.visualization_data.to_string();
        // Every card is one the widget and the embed draw.
        if let Err(error) = Chart::from_json(&text) {
            tracing::error!(
                "api: a suggested {} card does not read: {error}",
                suggestion.kind.as_str()
            );
            continue;
        }
        made.debug.push(json!({"source": source.name, "card_type": suggestion.kind.as_str(), "columns": source.table.context()}));
        let card = card(base, source, suggestion);
        // Cards of stored files are kept, so their pages and images can
        // be shown; cards of inline CSV never are.
        if let Some(file_id) = &source.file_id {
            made.stored.extend(card_row(&card, tenant, file_id));
        }
        made.cards.push(card);
    }
    Ok(())
}

/// The row that keeps `card`, made from `file_id` (a file, or a built-in
/// dataset), so its page, image and embed answer later.
pub(super) fn card_row(card: &Value, tenant: &Tenant, file_id: &str) -> Option<CardRow> {
    let text = |name: &str| card[name].as_str().unwrap_or_default().to_owned();
    Some(CardRow {
        card_id: card["card_id"].as_str()?.to_owned(),
        tenant: tenant.0.clone(),
        file_id: file_id.to_owned(),
        card_type: text("card_type"),
        title: text("title"),
        description: text("description"),
        visualization_data: card["visualization_data"].to_string(),
        created_at: now_rfc3339(),
    })
}

pub(super) fn card(base: &str, source: &Source, suggestion: Suggestion) -> Value {
    let id = new_id("card");
    let origin = match (&source.origin, &source.file_id) {
        (Some(origin), _) => origin.clone(),
        (None, Some(file_id)) => format!("From the file {} ({file_id}).", source.name),
        (None, None) => "From CSV sent with the request; not stored.".to_owned(),
    };
    json!({
        "card_id": id,
        "title": suggestion.title,
        "description": format!("{} {origin}", suggestion.description),
        "webpage_url": format!("{base}/card/{id}/"),
        "image_url": format!("{base}/api/v1/image/{id}/"),
        "embed_url": format!("{base}/embed/{id}/"),
        "sources": [{
            "source_name": source.name,
            "source_description": source.table.context(),
            "source_index": source.index.as_deref().unwrap_or(if source.file_id.is_some() { "private" } else { "inline" }),
            "url": source.data_url,
        }],
        "methodologies": [{
            "methodology_name": "Rule-based recommendation",
            "methodology_description": "The card type follows from the columns' kinds and counts and from the query's words (docs/service-api.md#visualize); values are summed per category or date.",
        }],
        "source_indexes": source.index.iter().collect::<Vec<_>>(),
        "card_type": suggestion.kind.as_str(),
        "data_url": source.data_url,
        "confidence": suggestion.confidence,
        "visualization_data": suggestion.visualization_data,
    })
}

fn answer(names: &[String], cards: &[Value]) -> String {
    let titles: Vec<String> = cards
        .iter()
        .filter_map(|c| {
            Some(format!(
                "{} ({})",
                c["title"].as_str()?,
                c["card_type"].as_str()?
            ))
        })
        .collect();
    format!(
        "{} card{} from {}: {}.",
        cards.len(),
        if cards.len() == 1 { "" } else { "s" },
        names.join(", "),
        titles.join("; ")
    )
}
