//! Spec 4.3, `POST /api/v1/knowledge_search`: full-text search (SQLite
//! FTS5, bm25) over the built-in indexes, public datasets converted from
//! vega-datasets at build time (`crates/api/datasets/`,
//! `scripts/gen-datasets.mjs`), and over the key's private indexes, in
//! `source_indexes`' priority order: once an index has a relevant dataset,
//! later ones are not searched. The best dataset of that index is drawn by
//! `visualize`'s recommender with the query, then adapted to the intent:
//! series of different measures (columns) as percent change since start,
//! series of one measure whose sizes differ tenfold on two y-axes. The
//! cards are written in `locale`, and a dataset of countries is kept to
//! `country_code`'s unless the query names others.

use std::sync::{Arc, OnceLock};

use axum::extract::State;
use axum::http::HeaderMap;
use axum::{Extension, Json};
use rusqlite::{params, Connection};
use serde_json::{json, Map, Value};
use zdr_chart::geo::Atlas;
use zdr_chart::model::CardKind;
use zdr_chart::Chart;

use super::body::{optional, text};
use super::ids::new_id;
use super::recommend::suggest;
use super::store::{FileRow, Store};
use super::table::{read_csv, Cell, Kind, Table, TableError};
use super::visualize::{card, card_row, Source};
use super::work::{heavy, table_memory};
use super::{blocking, Api, ApiError, Tenant};
use zdr_embed_page::limits::Stop;

/// A built-in dataset, as `datasets.json` describes it.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Dataset {
    pub id: String,
    pub index: String,
    pub title: String,
    pub description: String,
    pub keywords: String,
    pub license: String,
}

#[derive(serde::Deserialize)]
struct Catalogue {
    datasets: Vec<Dataset>,
}

const CATALOGUE: &str = include_str!("../datasets/datasets.json");

fn csv_of(id: &str) -> Option<&'static str> {
    Some(match id {
        "stocks" => include_str!("../datasets/stocks.csv"),
        "gapminder" => include_str!("../datasets/gapminder.csv"),
        "seattle-weather" => include_str!("../datasets/seattle-weather.csv"),
        "iowa-electricity" => include_str!("../datasets/iowa-electricity.csv"),
        _ => return None,
    })
}

/// The built-in datasets, read once.
pub fn datasets() -> &'static [Dataset] {
    static DATASETS: OnceLock<Vec<Dataset>> = OnceLock::new();
    DATASETS.get_or_init(|| {
        serde_json::from_str::<Catalogue>(CATALOGUE)
            .map(|c| c.datasets)
            .unwrap_or_default()
    })
}

/// The built-in indexes' names, in their default order.
pub fn builtin_indexes() -> Vec<&'static str> {
    let mut names: Vec<&str> = Vec::new();
    for d in datasets() {
        if !names.contains(&d.index.as_str()) {
            names.push(&d.index);
        }
    }
    names
}

/// Indexes one search names, and private indexes one search looks in, at most.
const MAX_INDEXES: usize = 100;
/// Files of a private index searched at most (the oldest).
const MAX_FILES: usize = 100;
/// Query text at most, in characters.
const MAX_QUERY: usize = 2_000;
/// Words of the query searched for at most.
const MAX_WORDS: usize = 16;
/// Distinct values of a column indexed at most.
const MAX_VALUES: usize = 300;
/// The largest built-in dataset's CSV, in bytes (seattle-weather's is 48 KB).
const BUILTIN_LARGEST: usize = 64 << 10;

const STOPWORDS: [&str; 24] = [
    "the", "of", "and", "in", "on", "for", "to", "a", "an", "by", "with", "show", "me", "what",
    "how", "is", "are", "over", "from", "as", "per", "vs", "versus", "chart",
];

/// The query as an FTS5 expression: its words, any of them, each a prefix.
fn match_expression(query: &str) -> Option<String> {
    let mut words: Vec<String> = Vec::new();
    for word in query
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
    {
        if word.chars().count() >= 2
            && !STOPWORDS.contains(&word.as_str())
            && !words.contains(&word)
        {
            words.push(word);
        }
        if words.len() == MAX_WORDS {
            break;
        }
    }
    (!words.is_empty()).then(|| {
        words
            .iter()
            .map(|w| format!("\"{w}\"*"))
            .collect::<Vec<_>>()
            .join(" OR ")
    })
}

/// What is searched of a table: its columns' names and its category values.
fn words_of(table: &Table) -> (String, String) {
    let columns = table
        .columns
        .iter()
        .map(|c| c.name.replace('_', " "))
        .collect::<Vec<_>>()
        .join(" ");
    let mut values: Vec<&str> = Vec::new();
    for column in &table.columns {
        if matches!(column.kind, Kind::Category | Kind::Place) {
            for cell in &column.cells {
                if let Cell::Text(t) = cell {
                    if !values.contains(&t.as_str()) && values.len() < MAX_VALUES {
                        values.push(t);
                    }
                }
            }
        }
    }
    (columns, values.join(" "))
}

/// A searchable dataset: what is said of it and the words of its table
/// (the table itself is read again only for the one that is drawn, so a
/// search holds one table at a time).
struct Document {
    name: String,
    description: String,
    extra: String,
    /// The table's column names and category values ([`words_of`]).
    words: (String, String),
    file: Option<FileRow>,
    dataset: Option<&'static Dataset>,
}

/// Ranks `documents` for `expression` with FTS5's bm25: the indices of the
/// relevant ones, best first.
fn rank(documents: &[Document], expression: &str) -> rusqlite::Result<Vec<usize>> {
    let db = Connection::open_in_memory()?;
    db.execute_batch("CREATE VIRTUAL TABLE docs USING fts5(name, description, columns, vals)")?;
    for (i, d) in documents.iter().enumerate() {
        let (columns, values) = &d.words;
        db.execute(
            "INSERT INTO docs (rowid, name, description, columns, vals) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                i as i64,
                d.name,
                [d.description.as_str(), d.extra.as_str()].join(" "),
                columns,
                values
            ],
        )?;
    }
    let mut statement = db.prepare(
        // Names and descriptions weigh more than values.
        "SELECT rowid FROM docs WHERE docs MATCH ?1 ORDER BY bm25(docs, 4.0, 2.0, 2.0, 1.0) LIMIT 3",
    )?;
    let rows = statement
        .query_map(params![expression], |r| r.get::<_, i64>(0))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows
        .into_iter()
        .filter_map(|i| usize::try_from(i).ok())
        .collect())
}

struct Request {
    query: String,
    indexes: Vec<String>,
    dark: bool,
    country: String,
    locale: &'static str,
}

fn parse(body: &Map<String, Value>) -> Result<Request, ApiError> {
    let query = match optional(body, "inputs") {
        Some(Value::Object(inputs)) => match text(inputs, "text")? {
            Some(q) if !q.trim().is_empty() && q.chars().count() <= MAX_QUERY => q,
            Some(q) if !q.trim().is_empty() => {
                return Err(ApiError::invalid(
                    "inputs",
                    format!("inputs.text is longer than {MAX_QUERY} characters"),
                ))
            }
            _ => {
                return Err(ApiError::invalid(
                    "inputs",
                    "inputs.text is required: the question to search for",
                ))
            }
        },
        Some(_) => return Err(ApiError::invalid("inputs", "inputs must be an object")),
        None => {
            return Err(ApiError::invalid(
                "inputs",
                "inputs is required: {\"text\": \"the question\"}",
            ))
        }
    };
    let indexes = super::body::string_list(body, "source_indexes")?;
    if indexes.len() > MAX_INDEXES {
        return Err(ApiError::invalid(
            "source_indexes",
            format!("source_indexes names at most {MAX_INDEXES} indexes"),
        ));
    }
    let dark = super::body::image_dark_mode(body)?;
    let country = text(body, "country_code")?.unwrap_or_else(|| "US".into());
    let known = country.len() == 2
        && country.bytes().all(|b| b.is_ascii_alphabetic())
        && zdr_chart::geo::lookup(Atlas::World, &country).is_some();
    if !known {
        return Err(ApiError::invalid(
            "country_code",
            format!(
                "country_code {:?} is not an ISO 3166-1 alpha-2 code of a country",
                country.chars().take(8).collect::<String>()
            ),
        ));
    }
    let tag = text(body, "locale")?.unwrap_or_else(|| "en-US".into());
    let locale = zdr_chart::locale::find(&tag).ok_or_else(|| {
        ApiError::invalid(
            "locale",
            format!(
                "locale {:?} is not one the cards can be written in: {}",
                tag.chars().take(40).collect::<String>(),
                zdr_chart::locale::tags()
            ),
        )
    })?;
    Ok(Request {
        query,
        indexes,
        dark,
        country: country.to_ascii_uppercase(),
        locale: locale.tag(),
    })
}

/// A stopped read says so; any other failure to read a table the host
/// wrote itself is the host's.
fn table_error(error: TableError) -> ApiError {
    match error {
        TableError::Stopped(_) => ApiError::Deadline(0),
        other => ApiError::internal(other),
    }
}

/// The table of a document.
fn table_of(
    store: &Store,
    tenant: &Tenant,
    document: &Document,
    stop: &Stop,
) -> Result<Table, ApiError> {
    match (&document.file, document.dataset) {
        (Some(file), _) => {
            let bytes = store
                .object(tenant, &file.cleaned_object)
                .map_err(ApiError::internal)?;
            read_csv(&bytes, stop).map_err(table_error)
        }
        (None, Some(d)) => {
            let text = csv_of(&d.id).unwrap_or_default();
            read_csv(text.as_bytes(), stop).map_err(table_error)
        }
        (None, None) => Err(ApiError::internal("a document with no table")),
    }
}

/// The documents of one index: a built-in one's datasets, or the files of
/// a private index of this key, each table read and let go in turn.
fn documents(
    store: &Store,
    tenant: &Tenant,
    index: &str,
    stop: &Stop,
) -> Result<Vec<Document>, ApiError> {
    let mut out = Vec::new();
    if builtin_indexes().contains(&index) {
        for d in datasets().iter().filter(|d| d.index == index) {
            let mut document = Document {
                name: d.title.clone(),
                description: d.description.clone(),
                extra: d.keywords.clone(),
                words: Default::default(),
                file: None,
                dataset: Some(d),
            };
            document.words = words_of(&table_of(store, tenant, &document, stop)?);
            out.push(document);
        }
        return Ok(out);
    }
    let files = store
        .index_files(tenant, index)
        .map_err(ApiError::internal)?;
    for (file_id, _, _, _) in files.into_iter().take(MAX_FILES) {
        let Some(row) = store.file(tenant, &file_id).map_err(ApiError::internal)? else {
            continue;
        };
        let mut document = Document {
            name: row.file_name.clone(),
            description: [
                row.file_context.clone().unwrap_or_default(),
                row.source.clone().unwrap_or_default(),
            ]
            .join(" "),
            extra: String::new(),
            words: Default::default(),
            file: Some(row),
            dataset: None,
        };
        document.words = words_of(&table_of(store, tenant, &document, stop)?);
        out.push(document);
    }
    Ok(out)
}

/// A table of countries kept to `country`'s rows, unless the query names
/// one of its places or no row is of that country.
fn to_country(table: Table, query: &str, country: &str) -> Table {
    let Some(at) = table.columns.iter().position(|c| c.kind == Kind::Place) else {
        return table;
    };
    let query = query.to_lowercase();
    let Some(column) = table.columns.get(at) else {
        return table;
    };
    let named = column.cells.iter().any(|c| match c {
        Cell::Text(t) => query.contains(&t.to_lowercase()),
        _ => false,
    });
    let keep: Vec<bool> = column
        .cells
        .iter()
        .map(|c| match c {
            Cell::Text(t) => {
                zdr_chart::geo::lookup(Atlas::World, t).is_some_and(|r| r.code2 == country)
            }
            _ => false,
        })
        .collect();
    if named || !keep.contains(&true) {
        return table;
    }
    let columns = table
        .columns
        .into_iter()
        .map(|mut c| {
            c.cells = c
                .cells
                .into_iter()
                .zip(&keep)
                .filter_map(|(cell, k)| k.then_some(cell))
                .collect();
            c
        })
        .collect();
    Table {
        rows: keep.iter().filter(|k| **k).count(),
        columns,
    }
}

/// The table at its latest date, and that date as written: bars, pies and
/// maps of a dataset over time show the latest values per category rather
/// than their sum over every date (a country's fertility summed over fifty
/// years means nothing). `None` for a table without dates, or of one date.
fn latest(table: &Table) -> Option<(Table, String)> {
    let time = table.columns.iter().find(|c| c.kind == Kind::Time)?;
    let seconds: Vec<Option<f64>> = time
        .cells
        .iter()
        .map(|c| match c {
            Cell::Text(t) => zdr_chart::model::parse_date(t).map(|(s, _)| s),
            _ => None,
        })
        .collect();
    let last = seconds
        .iter()
        .flatten()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    let first = seconds
        .iter()
        .flatten()
        .copied()
        .fold(f64::INFINITY, f64::min);
    if last.partial_cmp(&first) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    let keep: Vec<bool> = seconds.iter().map(|s| *s == Some(last)).collect();
    let at = keep.iter().position(|k| *k)?;
    let written = match time.cells.get(at) {
        Some(Cell::Text(t)) => t.clone(),
        _ => return None,
    };
    let columns = table
        .columns
        .iter()
        .map(|c| super::table::Column {
            name: c.name.clone(),
            kind: c.kind,
            cells: c
                .cells
                .iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(cell, _)| cell.clone())
                .collect(),
        })
        .collect();
    Some((
        Table {
            columns,
            rows: keep.iter().filter(|k| **k).count(),
        },
        written,
    ))
}

/// The card adapted to the intent and written in `locale`: series of
/// different measures as percent change since start, series of one
/// measure far apart in size on two axes.
fn adapt(visualization_data: &mut Value, table: &Table, locale: &str) {
    let measures: Vec<&str> = table
        .columns
        .iter()
        .filter(|c| c.kind == Kind::Number)
        .map(|c| c.name.as_str())
        .collect();
    let Some(config) = visualization_data["viz_config"].as_object_mut() else {
        return;
    };
    config.insert("locale".into(), json!(locale));
    if config.get("viz_component_type").and_then(Value::as_str)
        != Some(CardKind::Timeseries.as_str())
    {
        return;
    }
    let names: Vec<String> = visualization_data["data"]["series"]
        .as_array()
        .map(|s| {
            s.iter()
                .filter_map(|s| s["name"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    if names.len() >= 2 && names.iter().all(|n| measures.contains(&n.as_str())) {
        // Measures of different units: two on their own axes, more as
        // their change since start.
        let config = &mut visualization_data["viz_config"];
        if let Some(config) = config.as_object_mut() {
            config.remove("units");
        }
        if let [first, second] = names.as_slice() {
            config["y_label"] = json!(first.replace('_', " "));
            config["right_axis_label"] = json!(second.replace('_', " "));
            config["right_axis_series"] = json!([second]);
        } else {
            config["percent_change"] = json!(true);
        }
        return;
    }
    if let Ok(chart) = Chart::from_json(&visualization_data.to_string()) {
        if let zdr_chart::model::Card::Timeseries { series, .. } = &chart.card {
            let right = zdr_chart::sides::right_flags(&chart.config, series);
            let named: Vec<&str> = series
                .iter()
                .zip(&right)
                .filter(|(_, r)| **r)
                .map(|(s, _)| s.name.as_str())
                .collect();
            if !named.is_empty() {
                visualization_data["viz_config"]["right_axis_series"] = json!(named);
            }
        }
    }
}

/// 4.3 `POST /api/v1/knowledge_search`.
pub async fn search(
    State(api): State<Arc<Api>>,
    Extension(tenant): Extension<Tenant>,
    headers: HeaderMap,
    body: super::extract::JsonBody,
) -> Result<Json<Value>, ApiError> {
    let body = &body.object;
    let request = parse(body)?;
    let thread = match text(body, "thread_id")? {
        Some(id) => Some(super::threads::find(&api, &tenant, &id).await?),
        None => None,
    };
    // The order searched: as given (each a built-in index or a private
    // index of this key), else the key's private indexes, then the built-ins.
    let order: Vec<String> = if request.indexes.is_empty() {
        let t = tenant.clone();
        let limit = MAX_INDEXES as u64;
        let (private, _) = blocking(&api, move |store| store.indexes(&t, 0, limit)).await?;
        private
            .into_iter()
            .map(|i| i.id)
            .chain(builtin_indexes().into_iter().map(str::to_owned))
            .collect()
    } else {
        for index in &request.indexes {
            if !builtin_indexes().contains(&index.as_str()) {
                super::indexes::exists(&api, &tenant, index)
                    .await
                    .map_err(|_| {
                        ApiError::invalid(
                            "source_indexes",
                            format!(
                                "{index} is neither a built-in index ({}) nor a private index of this key",
                                builtin_indexes().join(", ")
                            ),
                        )
                    })?;
            }
        }
        request.indexes.clone()
    };
    let base = api.base_url(&headers);
    let store = api.store()?;
    let private = order
        .iter()
        .any(|i| !builtin_indexes().contains(&i.as_str()));
    // A private index's files may be as large as a table may be; the
    // built-in datasets are small.
    let memory = if private {
        table_memory(usize::MAX)
    } else {
        table_memory(BUILTIN_LARGEST)
    };
    let (t, query) = (tenant.clone(), request.query.clone());
    let asked = request.query.clone();
    let (cards, stored, answer, searched) = heavy(&api, memory, move |stop| {
        let tenant = t;
        let expression = match_expression(&query);
        let mut searched = Vec::new();
        let mut found: Option<(String, Document)> = None;
        if let Some(expression) = &expression {
            for index in &order {
                searched.push(index.clone());
                let mut docs = documents(&store, &tenant, index, stop)?;
                let ranked = rank(&docs, expression).map_err(ApiError::internal)?;
                if let Some(&best) = ranked.first() {
                    if best < docs.len() {
                        found = Some((index.clone(), docs.swap_remove(best)));
                        break;
                    }
                }
            }
        }
        let mut cards = Vec::new();
        let mut stored = Vec::new();
        let answer = match found {
            None => format!(
                "Nothing relevant to \"{}\" in {}.",
                request.query.trim(),
                if searched.is_empty() {
                    "any index (no word to search for)".to_owned()
                } else {
                    searched.join(", ")
                }
            ),
            Some((index, doc)) => {
                let table = table_of(&store, &tenant, &doc, stop)?;
                let table = to_country(table, &request.query, &request.country);
                let file_id = doc.file.as_ref().map(|f| f.file_id.clone());
                let origin = match doc.dataset {
                    Some(d) => format!(
                        "From the built-in dataset \"{}\" (index {index}; {}; licence: {}).",
                        d.title, d.id, d.license
                    ),
                    None => format!("From the file {} of private index {index}.", doc.name),
                };
                let data_url = match (&file_id, doc.dataset) {
                    (Some(id), _) => format!("{base}/api/v1/beta/files/{id}/cleaned/"),
                    (None, Some(d)) => format!(
                        "https://github.com/vega/vega-datasets/blob/main/data/{}",
                        d.id
                    ),
                    _ => String::new(),
                };
                let source = Source {
                    name: doc.name.clone(),
                    file_id: file_id.clone(),
                    data_url,
                    table,
                    origin: Some(origin),
                    index: Some(index.clone()),
                };
                let mut suggestions = suggest(
                    &source.table,
                    &source.name,
                    Some(&request.query),
                    None,
                    request.dark,
                )
                .map_err(|reason| ApiError::invalid("inputs", reason))?;
                // Categories of a dataset over time: their latest values.
                if let Some((snapshot, date)) = latest(&source.table) {
                    for suggestion in &mut suggestions {
                        if matches!(
                            suggestion.kind,
                            CardKind::Bar | CardKind::Pie | CardKind::Choropleth
                        ) {
                            let again = suggest(
                                &snapshot,
                                &source.name,
                                Some(&request.query),
                                Some(suggestion.kind),
                                request.dark,
                            );
                            if let Some(mut latest) = again.ok().and_then(|mut s| s.pop()) {
                                latest.title = [latest.title.as_str(), " in ", &date].concat();
                                latest.visualization_data["viz_config"]["title"] =
                                    json!(latest.title);
                                *suggestion = latest;
                            }
                        }
                    }
                }
                for mut suggestion in suggestions {
                    adapt(
                        &mut suggestion.visualization_data,
                        &source.table,
                        request.locale,
                    );
                    if Chart::from_json(&suggestion.visualization_data.to_string()).is_err() {
                        continue;
                    }
                    let card = card(&base, &source, suggestion);
                    let file_id = file_id.clone().unwrap_or_else(|| {
                        format!("dataset:{}", doc.dataset.map_or("", |d| d.id.as_str()))
                    });
                    stored.extend(card_row(&card, &tenant, &file_id));
                    cards.push(card);
                }
                let skipped = order.len().saturating_sub(searched.len());
                format!(
                    "{} card{} from {} in index {index}{}.",
                    cards.len(),
                    if cards.len() == 1 { "" } else { "s" },
                    doc.name,
                    if skipped > 0 {
                        format!("; {skipped} later index(es) not searched")
                    } else {
                        String::new()
                    }
                )
            }
        };
        Ok((cards, stored, answer, searched))
    })
    .await?;
    if !stored.is_empty() {
        blocking(&api, move |store| store.put_cards(&stored)).await?;
    }
    let outputs = json!({"knowledge_cards": cards, "answer": answer});
    let thread_id =
        super::threads::record(&api, &tenant, thread, "knowledge_search", &asked, &outputs).await?;
    Ok(Json(json!({
        "outputs": outputs,
        "request_id": new_id("req"),
        "thread_id": thread_id,
        "searched_indexes": searched,
    })))
}
