//! `visualize` (4.5), `POST files` (4.2) and `visualize_saved_view` (4.6):
//! cards from CSV sent inline or from stored files, chosen by the
//! recommender ([`crate::recommend`]) or by saved views. Inline CSV is read
//! in memory and never written anywhere; a card from it is never stored.
//! No language model runs here: `model` is checked and recorded, and the
//! query steers documented rules.

use std::sync::Arc;

use zdr_chart::model::CardKind;

use super::cards::{answer, card, card_row, keep, Source};
use crate::answer::Asked;
use crate::ids::new_id;
use crate::model::card::{Debug, DebugEntry, KnowledgeCard, Outputs, Results};
use crate::model::visualize::VisualizeRequest;
use crate::query::{self, Aliases, Drawing};
use crate::recommend::Suggestion;
use crate::store::{CardRow, FileRow, ViewRow};
use crate::table::{read_csv, TableError};
use crate::work::{heavy, table_memory};
use crate::{blocking, Api, ApiError, Tenant, MAX_FILE};

/// Tables per request at most (CSV strings and file ids together).
pub const MAX_TABLES: usize = 10;

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

/// What the cards of one request are made of, as it goes.
#[derive(Default)]
struct Made {
    cards: Vec<KnowledgeCard>,
    stored: Vec<CardRow>,
    debug: Vec<DebugEntry>,
    names: Vec<String>,
    /// What each query was understood as, per table.
    answers: Vec<String>,
    /// How each CSV read otherwise than the common way was read.
    read_as: Vec<String>,
}

/// 4.5: the cards of a request, and the thread a call with a query is kept
/// in.
pub async fn visualize(
    api: &Arc<Api>,
    tenant: &Tenant,
    base: &str,
    request: VisualizeRequest,
) -> Result<Results, ApiError> {
    let query = request.query.clone().filter(|q| !q.trim().is_empty());
    let thread = match &request.thread_id {
        Some(id) => Some(super::threads::find(api, tenant, id).await?),
        None => None,
    };
    let preview = request.image_ttl_minutes.map(|m| (m, request.dark));
    let mut results = cards(api, tenant, base, request, None).await?;
    if let Some((minutes, dark)) = preview {
        let made = &results.outputs.knowledge_cards;
        super::previews::keep(api, tenant, made, minutes, dark).await?;
    }
    if let Some(query) = query {
        let id = super::threads::record(api, tenant, thread, "visualize", &query, &results.outputs)
            .await?;
        results.thread_id = Some(id);
    }
    Ok(results)
}

/// 4.6: the cards of `views` for the stored files `files`, each file drawn
/// by the views of its schema.
pub async fn of_views(
    api: &Arc<Api>,
    tenant: &Tenant,
    base: &str,
    files: Vec<String>,
    views: Vec<ViewRow>,
    debug: bool,
) -> Result<Results, ApiError> {
    let request = VisualizeRequest {
        csv: Vec::new(),
        files: files
            .into_iter()
            .map(|file_id| crate::model::visualize::FileRef {
                file_id,
                file_context: None,
                private_index_id: None,
                segment_id: None,
            })
            .collect(),
        query: None,
        kind: None,
        dark: false,
        debug,
        thread_id: None,
        index: None,
        image_ttl_minutes: None,
    };
    cards(api, tenant, base, request, Some(views)).await
}

/// The 2.4 envelope of the cards for `request`. The tables are read and
/// drawn one at a time, in one piece of heavy work through the host's
/// admission, reckoned at the largest of them.
pub async fn cards(
    api: &Arc<Api>,
    tenant: &Tenant,
    base: &str,
    request: VisualizeRequest,
    views: Option<Vec<ViewRow>>,
) -> Result<Results, ApiError> {
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
    let mut files: Vec<FileRow> = Vec::new();
    for file in &request.files {
        let row = super::files::row(api, tenant, &file.file_id).await?;
        let (t, object) = (tenant.clone(), row.cleaned_object.clone());
        let size = blocking(api, move |store| store.objects.object_len(&t, &object)).await?;
        largest = largest.max(usize::try_from(size).unwrap_or(usize::MAX));
        files.push(row);
    }
    super::ontology::connected(api, tenant, request.index.as_deref()).await?;
    let store = api.store().await?;
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
                builtin: None,
                context: None,
            };
            cards_of(&source, &request, views.as_deref(), &t, &b, &mut made)?;
        }
        for file in files {
            let bytes = store
                .objects
                .object(&t, &file.cleaned_object)
                .map_err(ApiError::internal)?;
            let table = read_csv(&bytes, stop).map_err(|e| match e {
                TableError::Stopped(_) => ApiError::Deadline(0),
                other => ApiError::internal(other),
            })?;
            drop(bytes);
            let source = Source {
                name: file.display_name.clone().unwrap_or(file.file_name.clone()),
                data_url: format!("{b}/api/v1/beta/files/{}/cleaned/", file.file_id),
                file_id: Some(file.file_id),
                table,
                origin: None,
                builtin: None,
                context: file.file_context,
            };
            cards_of(&source, &request, views.as_deref(), &t, &b, &mut made)?;
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
        answers,
        read_as,
    } = made;
    keep(api, stored).await?;
    let answer = if answers.is_empty() {
        answer(&names, &cards)
    } else {
        answers.join(" ")
    };
    // "CSV 1: read as semicolon-separated, with decimal commas."
    let answer = read_as
        .into_iter()
        .chain([answer])
        .collect::<Vec<_>>()
        .join(" ");
    Ok(Results {
        outputs: Outputs {
            knowledge_cards: cards,
            answer: Some(answer),
            debug: debugging.then_some(Debug {
                rules: "docs/service-api.md#how-a-question-is-read and #visualize",
                model: "none: deterministic rules read the question and the table",
                cards: debug,
            }),
        },
        request_id: new_id("req"),
        thread_id: None,
        searched_indexes: None,
    })
}

/// The words `source`'s owner gave for its columns: the request's
/// `file_context` for this file, else the one it was kept with.
fn aliases(source: &Source, request: &VisualizeRequest) -> Aliases {
    request
        .files
        .iter()
        .find(|f| Some(&f.file_id) == source.file_id.as_ref())
        .and_then(|f| f.file_context.as_deref())
        .or(source.context.as_deref())
        .map(Aliases::from_context)
        .unwrap_or_default()
        .knowing(&source.name)
}

/// The cards of the views of `source`'s schema, each a card when the data
/// can be drawn so (else said in debug).
fn of_saved_views(
    source: &Source,
    views: &[ViewRow],
    drawing: &Drawing,
    made: &mut Made,
) -> Vec<Suggestion> {
    let schema = source.table.schema_id();
    let mut found = Vec::new();
    for view in views.iter().filter(|v| v.schema_id == schema) {
        let kind = CardKind::from_name(&view.card_type);
        // A view's columns, joined by "by", read as a question.
        let read = view
            .query
            .as_deref()
            .map(|q| query::understand(q, &source.table, &Aliases::default()));
        let asked = read.as_ref().map_or(Asked::Nothing, Asked::View);
        match crate::answer::answer(&source.table, &source.name, asked, kind, drawing) {
            Ok(answered) => found.extend(answered.cards.into_iter().map(|mut s| {
                s.retitle(view.name.clone());
                s
            })),
            Err(reason) => made.debug.push(DebugEntry {
                source: source.name.clone(),
                card_type: None,
                columns: None,
                saved_view_id: Some(view.view_id.clone()),
                not_drawn: Some(reason),
                plan: None,
            }),
        }
    }
    found
}

/// The cards of one table, added to `made`.
fn cards_of(
    source: &Source,
    request: &VisualizeRequest,
    views: Option<&[ViewRow]>,
    tenant: &Tenant,
    base: &str,
    made: &mut Made,
) -> Result<(), ApiError> {
    made.names.push(source.name.clone());
    if let Some(read_as) = &source.table.read_as {
        made.read_as.push(format!("{}: {read_as}.", source.name));
    }
    let drawing = Drawing {
        row: "rows",
        dark: request.dark,
    };
    let mut plan = None;
    let suggestions = match views {
        None => {
            let question = request.query.as_deref().filter(|q| !q.trim().is_empty());
            let read =
                question.map(|q| query::understand(q, &source.table, &aliases(source, request)));
            let asked = match (question, &read) {
                (Some(text), Some(plan)) => Asked::Question { text, plan },
                _ => Asked::Nothing,
            };
            let answered =
                crate::answer::answer(&source.table, &source.name, asked, request.kind, &drawing)
                    .map_err(|reason| {
                    ApiError::invalid("viz_component_type", format!("{}: {reason}", source.name))
                })?;
            if let Some(said) = &answered.said {
                made.answers.push(format!("{}: {said}", source.name));
            }
            plan = answered.plan;
            answered.cards
        }
        Some(views) => of_saved_views(source, views, &drawing, made),
    };
    for suggestion in suggestions {
        made.debug.push(DebugEntry {
            source: source.name.clone(),
            card_type: Some(suggestion.kind().as_str()),
            columns: Some(source.table.context()),
            saved_view_id: None,
            not_drawn: None,
            plan: plan.take(),
        });
        let card = card(base, source, suggestion, source.file_id.is_some());
        // Cards of stored files are kept, so their pages and images can
        // be shown; cards of inline CSV never are.
        if let Some(file_id) = &source.file_id {
            made.stored.push(card_row(&card, tenant, file_id)?);
        }
        made.cards.push(card);
    }
    Ok(())
}
