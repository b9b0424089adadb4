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

use rusqlite::{params, Connection};
use zdr_chart::geo::Atlas;
use zdr_chart::model::{Card, CardKind};
use zdr_chart::Chart;
use zdr_embed_page::limits::Stop;

use super::cards::{card, card_row, keep, Source};
use super::files::MAX_LISTED;
use crate::answer::Asked;
use crate::ids::new_id;
use crate::model::card::{Debug, DebugEntry, KnowledgeCard, Outputs, PlanView, Results};
use crate::model::search::{SearchRequest, SourceIndex};
use crate::query::lexicon::UNSEARCHED;
use crate::query::{self, Aliases, Drawing, Plan};
use crate::recommend::{suggest, Suggestion, MAX_CARDS};
use crate::store::{CardRow, FileRow, Store};
use crate::table::{read_csv, Cell, Kind, Table, TableError};
use crate::work::{heavy, table_memory};
use crate::{Api, ApiError, Tenant};

/// A built-in dataset, as `datasets.json` describes it.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Dataset {
    pub id: String,
    pub index: String,
    pub title: String,
    pub description: String,
    pub keywords: String,
    pub license: String,
    /// What one row is ("cars", "days").
    #[serde(default)]
    pub row: Option<String>,
    /// Words for its columns and values: `"microsoft": "symbol=MSFT"`.
    #[serde(default)]
    pub aliases: std::collections::BTreeMap<String, String>,
}

impl Dataset {
    pub fn aliases(&self) -> Aliases {
        let mut aliases =
            Aliases::from_pairs(self.aliases.iter().map(|(a, b)| (a.as_str(), b.as_str())));
        aliases.row = self.row.clone();
        aliases.knowing(&[self.title.as_str(), &self.keywords].join(" "))
    }
}

#[derive(serde::Deserialize)]
struct Catalogue {
    datasets: Vec<Dataset>,
}

const CATALOGUE: &str = include_str!("../../datasets/datasets.json");

fn csv_of(id: &str) -> Option<&'static str> {
    Some(match id {
        "stocks" => include_str!("../../datasets/stocks.csv"),
        "gapminder" => include_str!("../../datasets/gapminder.csv"),
        "seattle-weather" => include_str!("../../datasets/seattle-weather.csv"),
        "iowa-electricity" => include_str!("../../datasets/iowa-electricity.csv"),
        "cars" => include_str!("../../datasets/cars.csv"),
        "movies" => include_str!("../../datasets/movies.csv"),
        "football" => include_str!("../../datasets/football.csv"),
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
pub const MAX_INDEXES: usize = 100;
/// Files of a private index searched at most (the oldest).
const MAX_FILES: usize = 100;
/// Query text at most, in characters.
pub const MAX_QUERY: usize = 2_000;
/// Words of the query searched for at most.
const MAX_WORDS: usize = 16;
/// Distinct values of a column indexed at most.
const MAX_VALUES: usize = 300;
/// The largest built-in dataset's CSV, in bytes (movies' is 426 KB).
const BUILTIN_LARGEST: usize = 512 << 10;

/// The query as an FTS5 expression: its words, any of them, each a prefix.
fn match_expression(query: &str) -> Option<String> {
    let words = query_words(query);
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
    /// How much of the question its table names ([`named`]).
    score: usize,
}

/// How much of `question` a table names: measures and values weigh
/// three, groups and numeric filters two, each word of the question in
/// the dataset's title or keywords one. Zero: nothing but full text.
fn named(question: &str, table: &Table, aliases: &Aliases, said: &str) -> usize {
    let plan = query::understand(question, table, aliases);
    let values = plan
        .filters
        .iter()
        .filter(|f| {
            table
                .columns
                .get(f.column)
                .is_some_and(|c| matches!(c.kind, Kind::Category | Kind::Place))
        })
        .count();
    // Dates are in most tables: "since 1955" names none of them.
    let numeric = plan
        .filters
        .iter()
        .filter(|f| {
            table
                .columns
                .get(f.column)
                .is_some_and(|c| c.kind == Kind::Number)
        })
        .count();
    let said = said.to_lowercase();
    let words = query_words(question)
        .iter()
        .filter(|w| w.chars().count() >= 4 && !query::is_rule_word(w) && said.contains(w.as_str()))
        .count();
    let measures =
        plan.measures.len() - usize::from(plan.inferred_measure && !plan.measures.is_empty());
    // A group taken for want of one named is no sign of this table either.
    let groups =
        plan.dimensions.len() - usize::from(plan.guessed.is_some() && !plan.dimensions.is_empty());
    measures * 3 + values * 3 + groups * 2 + numeric.min(1) * 2 + words
}

/// The question's words, lower case, stop words left out.
fn query_words(query: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for word in query
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
    {
        if word.chars().count() >= 2
            && !UNSEARCHED.contains(&word.as_str())
            && !words.contains(&word)
        {
            words.push(word);
        }
        if words.len() == MAX_WORDS {
            break;
        }
    }
    words
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
                .objects
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

/// The documents of the built-in datasets of `segment` (all of them for
/// none), each table read and let go in turn.
fn builtin_documents(
    store: &Store,
    tenant: &Tenant,
    segment: Option<&str>,
    question: &str,
    stop: &Stop,
) -> Result<Vec<Document>, ApiError> {
    let mut out = Vec::new();
    for d in datasets()
        .iter()
        .filter(|d| segment.is_none_or(|s| d.index == s))
    {
        let mut document = Document {
            name: d.title.clone(),
            description: d.description.clone(),
            extra: d.keywords.clone(),
            words: Default::default(),
            file: None,
            dataset: Some(d),
            score: 0,
        };
        let table = table_of(store, tenant, &document, stop)?;
        document.words = words_of(&table);
        let said = [d.title.as_str(), &d.keywords].join(" ");
        document.score = named(question, &table, &d.aliases(), &said);
        out.push(document);
    }
    Ok(out)
}

/// The documents of the key's files `files`, each table read and let go
/// in turn.
fn file_documents(
    store: &Store,
    tenant: &Tenant,
    files: Vec<FileRow>,
    question: &str,
    stop: &Stop,
) -> Result<Vec<Document>, ApiError> {
    let mut out = Vec::new();
    for row in files.into_iter().take(MAX_FILES) {
        let mut document = Document {
            name: row.display_name.clone().unwrap_or(row.file_name.clone()),
            description: [
                row.file_context.clone().unwrap_or_default(),
                row.source.clone().unwrap_or_default(),
            ]
            .join(" "),
            extra: String::new(),
            words: Default::default(),
            file: Some(row),
            dataset: None,
            score: 0,
        };
        let table = table_of(store, tenant, &document, stop)?;
        document.words = words_of(&table);
        let context = document
            .file
            .as_ref()
            .and_then(|f| f.file_context.as_deref())
            .unwrap_or("");
        let said = [document.name.as_str(), &document.description].join(" ");
        document.score = named(question, &table, &Aliases::from_context(context), &said);
        out.push(document);
    }
    Ok(out)
}

/// The key's files a group of the search looks in.
fn files_of(store: &Store, tenant: &Tenant, group: &Group) -> Result<Vec<FileRow>, ApiError> {
    let all = || {
        store
            .rows
            .files(tenant, MAX_LISTED)
            .map_err(ApiError::internal)
    };
    Ok(match group {
        Group::Files(ids) => {
            let mut out = Vec::new();
            for id in ids {
                out.extend(store.rows.file(tenant, id).map_err(ApiError::internal)?);
            }
            out
        }
        Group::Index(id) => {
            let mut out = Vec::new();
            for (file_id, _, _, _) in store
                .rows
                .index_files(tenant, id)
                .map_err(ApiError::internal)?
            {
                out.extend(
                    store
                        .rows
                        .file(tenant, &file_id)
                        .map_err(ApiError::internal)?,
                );
            }
            out
        }
        Group::Loose => all()?
            .into_iter()
            .filter(|f| f.private_index.is_none())
            .collect(),
        Group::FileSegment(segment) => all()?
            .into_iter()
            .filter(|f| f.segment_id.as_deref() == Some(segment.as_str()))
            .collect(),
        Group::Builtin(_) | Group::Web(_) => Vec::new(),
    })
}

/// What one step of a search looks in.
#[derive(Debug, Clone)]
enum Group {
    /// Files named by `inputs.x_file_source_ids`.
    Files(Vec<String>),
    /// The built-in datasets of one segment.
    Builtin(String),
    /// One private index of the key.
    Index(String),
    /// The key's files in no private index.
    Loose,
    /// The key's files of one segment.
    FileSegment(String),
    Web(String),
}

impl Group {
    /// As `searched_indexes` names it.
    fn name(&self) -> String {
        match self {
            Group::Files(_) => "x_file_source_ids".into(),
            Group::Builtin(segment) => segment.clone(),
            Group::Index(id) => id.clone(),
            Group::Loose => "connected_data".into(),
            Group::FileSegment(segment) => format!("connected_data:{segment}"),
            Group::Web(name) => name.clone(),
        }
    }
}

/// A table of countries kept to `country`'s rows, unless no row is of
/// that country.
fn to_country(table: Table, country: &str) -> Table {
    let Some(at) = table.columns.iter().position(|c| c.kind == Kind::Place) else {
        return table;
    };
    let Some(column) = table.columns.get(at) else {
        return table;
    };
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
    if !keep.contains(&true) {
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
        read_as: None,
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
    Some((query::kept(table, &keep), written))
}

/// The card adapted to the intent and written in `locale`: series of
/// different measures as percent change since start, series of one
/// measure far apart in size on two axes.
fn adapt(chart: &mut Chart, table: &Table, locale: &str) {
    if let Some(locale) = zdr_chart::locale::find(locale) {
        chart.config.locale = locale;
    }
    let Card::Timeseries { series, .. } = &chart.card else {
        return;
    };
    if chart.kind != CardKind::Timeseries {
        return;
    }
    let measures: Vec<&str> = table
        .columns
        .iter()
        .filter(|c| c.kind == Kind::Number)
        .map(|c| c.name.as_str())
        .collect();
    let names: Vec<String> = series.iter().map(|s| s.name.clone()).collect();
    // Series named by measures, as written or as the plan shows them.
    let measure = |n: &String| {
        measures
            .iter()
            .any(|m| *m == n || m.replace('_', " ") == *n)
    };
    if names.len() >= 2 && names.iter().all(measure) {
        // Measures of different units: two on their own axes, more as
        // their change since start.
        let mut config = chart.config.clone();
        config.units = None;
        if let [first, second] = names.as_slice() {
            config.y_label = Some(first.replace('_', " "));
            config.right_axis_label = Some(second.replace('_', " "));
            config.right_axis_series = Some(vec![second.clone()]);
        } else {
            config.percent_change = true;
        }
        if let Ok(adapted) = Chart::build(config, chart.kind, chart.card.clone()) {
            *chart = adapted;
        }
        return;
    }
    let right = zdr_chart::sides::right_flags(&chart.config, series);
    let named: Vec<String> = series
        .iter()
        .zip(&right)
        .filter(|(_, r)| **r)
        .map(|(s, _)| s.name.clone())
        .collect();
    if !named.is_empty() {
        chart.config.right_axis_series = Some(named);
    }
}

/// What each entry of `source_indexes` searches, in the order given:
/// `tako` the built-in segments one after the other, `connected_data` the
/// key's private indexes one after the other and then its files in none.
/// None given: the files `inputs.x_file_source_ids` names, then
/// `connected_data`, then `tako`.
async fn groups(
    api: &Arc<Api>,
    tenant: &Tenant,
    request: &SearchRequest,
) -> Result<Vec<Group>, ApiError> {
    let mut groups = Vec::new();
    if !request.files.is_empty() {
        for id in &request.files {
            super::files::row(api, tenant, id).await?;
        }
        groups.push(Group::Files(request.files.clone()));
    }
    let default = [SourceIndex::ConnectedData, SourceIndex::Tako];
    let indexes = if request.indexes.is_empty() {
        &default[..]
    } else {
        &request.indexes[..]
    };
    for index in indexes {
        match index {
            SourceIndex::Tako => groups.extend(
                builtin_indexes()
                    .into_iter()
                    .map(|s| Group::Builtin(s.to_owned())),
            ),
            SourceIndex::Segment(segment) => groups.push(Group::Builtin(segment.clone())),
            SourceIndex::ConnectedData => {
                let t = tenant.clone();
                let limit = MAX_INDEXES as u64;
                let (private, _) =
                    crate::blocking(api, move |store| store.rows.indexes(&t, 0, limit)).await?;
                groups.extend(private.into_iter().map(|i| Group::Index(i.id)));
                groups.push(Group::Loose);
            }
            SourceIndex::FileSegment(segment) => groups.push(Group::FileSegment(segment.clone())),
            SourceIndex::Web(name) => groups.push(Group::Web(name.clone())),
            SourceIndex::Private(id) => {
                super::ontology::exists(api, tenant, id).await.map_err(|_| {
                    ApiError::invalid(
                        "source_indexes",
                        format!(
                            "{} is neither an index this host has (tako, connected_data, web, tako_deep_v2, the built-in segments {}) nor a private index of this key",
                            id.chars().take(64).collect::<String>(),
                            builtin_indexes().join(", ")
                        ),
                    )
                })?;
                groups.push(Group::Index(id.clone()));
            }
        }
    }
    Ok(groups)
}

/// What the groups of a search found: the dataset to draw and the index
/// it is in, the groups searched, and how many later ones were not.
#[derive(Default)]
struct Found {
    best: Option<(String, Document)>,
    searched: Vec<String>,
    skipped: usize,
    /// A web index was asked for (this host has none).
    web: bool,
}

/// The groups in `order`, one after the other: the first whose dataset
/// the question names (its columns, values, aliases) answers; where none
/// does, the first with a full-text match.
fn find(
    store: &Store,
    tenant: &Tenant,
    order: &[Group],
    query: &str,
    stop: &Stop,
) -> Result<Found, ApiError> {
    let mut found = Found::default();
    let Some(expression) = match_expression(query) else {
        return Ok(found);
    };
    let mut text_match: Option<(String, Document)> = None;
    for (at, group) in order.iter().enumerate() {
        let mut docs = match group {
            Group::Web(_) => {
                found.web = true;
                continue;
            }
            Group::Builtin(segment) => {
                builtin_documents(store, tenant, Some(segment), query, stop)?
            }
            other => file_documents(store, tenant, files_of(store, tenant, other)?, query, stop)?,
        };
        // A group with nothing in it was not searched.
        if docs.is_empty() {
            continue;
        }
        found.searched.push(group.name());
        let ranked = rank(&docs, &expression).map_err(ApiError::internal)?;
        let most = docs.iter().map(|d| d.score).max().unwrap_or(0);
        if most > 0 {
            let tied: Vec<usize> = (0..docs.len())
                .filter(|i| docs.get(*i).is_some_and(|d| d.score == most))
                .collect();
            let best = ranked
                .iter()
                .copied()
                .find(|i| tied.contains(i))
                .or(tied.first().copied());
            if let Some(best) = best.filter(|b| *b < docs.len()) {
                found.best = Some((group.name(), docs.swap_remove(best)));
                found.skipped = order.len() - at - 1;
                return Ok(found);
            }
        }
        if text_match.is_none() {
            if let Some(best) = ranked.first().copied().filter(|b| *b < docs.len()) {
                text_match = Some((group.name(), docs.swap_remove(best)));
            }
        }
    }
    found.best = text_match;
    Ok(found)
}

/// The answer when nothing relevant was found.
fn nothing_found(query: &str, found: &Found) -> String {
    format!(
        "Nothing relevant to \"{}\" in {}.{}",
        query.trim(),
        if found.searched.is_empty() {
            "any index (no word to search for)".to_owned()
        } else {
            found.searched.join(", ")
        },
        if found.web {
            " This host has no web index to search."
        } else {
            ""
        }
    )
}

/// The words of a document's table: a built-in dataset's aliases, or a
/// file's `file_context`.
fn aliases_of(doc: &Document) -> Aliases {
    match doc.dataset {
        Some(d) => d.aliases(),
        None => Aliases::from_context(
            doc.file
                .as_ref()
                .and_then(|f| f.file_context.as_deref())
                .unwrap_or(""),
        )
        .knowing(&doc.name),
    }
}

/// The table of a found document as a source of cards.
fn source_of(doc: &Document, index: &str, table: Table, base: &str) -> Source {
    let file_id = doc.file.as_ref().map(|f| f.file_id.clone());
    let origin = match doc.dataset {
        Some(d) => format!(
            "From the built-in dataset \"{}\" (index {index}; {}; licence: {}).",
            d.title, d.id, d.license
        ),
        None => format!("From the file {} of {index}.", doc.name),
    };
    let data_url = match (&file_id, doc.dataset) {
        (Some(id), _) => format!("{base}/api/v1/beta/files/{id}/cleaned/"),
        (None, Some(d)) => format!(
            "https://github.com/vega/vega-datasets/blob/main/data/{}",
            d.id
        ),
        _ => String::new(),
    };
    Source {
        name: doc.name.clone(),
        file_id,
        data_url,
        table,
        origin: Some(origin),
        builtin: doc.dataset.map(|d| d.index.clone()),
        context: doc.file.as_ref().and_then(|f| f.file_context.clone()),
    }
}

/// `table` kept to `country`'s rows unless the question (read as `asked`)
/// names a place: filters, groups or maps by one; and whether it was.
fn narrowed(table: Table, asked: &Plan, country: &str) -> (Table, bool) {
    let place = |c: &usize| table.columns.get(*c).is_some_and(|c| c.kind == Kind::Place);
    let names_places = asked.filters.iter().any(|f| place(&f.column))
        || asked.dimensions.iter().any(place)
        || asked.chart.is_some_and(|(k, _)| k == CardKind::Choropleth);
    if names_places {
        return (table, false);
    }
    let rows = table.rows;
    let table = to_country(table, country);
    let narrowed = table.rows < rows;
    (table, narrowed)
}

/// Categories of a dataset over time: bars, pies and maps of the
/// recommender show their latest values, drawn again of the table at its
/// latest date and titled so.
fn at_latest_date(suggestions: &mut [Suggestion], source: &Source, plan: &Plan, dark: bool) {
    let Some((snapshot, date)) = latest(&source.table) else {
        return;
    };
    for suggestion in suggestions {
        if matches!(
            suggestion.kind(),
            CardKind::Bar | CardKind::Pie | CardKind::Choropleth
        ) {
            let again = suggest(
                &snapshot,
                &source.name,
                &query::intent(plan, &snapshot),
                Some(suggestion.kind()),
                dark,
            );
            if let Some(mut latest) = again.ok().and_then(|mut s| s.pop()) {
                let title = [latest.title(), " in ", &date].concat();
                latest.retitle(title);
                *suggestion = latest;
            }
        }
    }
}

/// The cards of `suggestions`, adapted to the question and written in
/// `locale`, and the rows that keep them (as `kept_as`).
fn written(
    suggestions: Vec<Suggestion>,
    source: &Source,
    (tenant, kept_as): (&Tenant, &str),
    base: &str,
    locale: &str,
) -> Result<(Vec<KnowledgeCard>, Vec<CardRow>), ApiError> {
    let mut cards = Vec::new();
    let mut stored = Vec::new();
    for mut suggestion in suggestions {
        adapt(&mut suggestion.chart, &source.table, locale);
        let card = card(base, source, suggestion, true);
        stored.push(card_row(&card, tenant, kept_as)?);
        cards.push(card);
    }
    Ok((cards, stored))
}

/// What a search drew of the dataset it found.
struct Drawn {
    cards: Vec<KnowledgeCard>,
    stored: Vec<CardRow>,
    answer: String,
    plan: Option<PlanView>,
    source: String,
}

/// The dataset found, read and kept to `country_code`'s rows unless the
/// question names places, answered ([`crate::answer`]), and its cards
/// adapted to the question and written in `locale`.
fn draw_found(
    store: &Store,
    tenant: &Tenant,
    base: &str,
    request: &SearchRequest,
    (index, doc): (String, Document),
    skipped: usize,
    stop: &Stop,
) -> Result<Drawn, ApiError> {
    let table = table_of(store, tenant, &doc, stop)?;
    let aliases = aliases_of(&doc);
    let asked = query::understand(&request.query, &table, &aliases);
    let (table, narrowed) = narrowed(table, &asked, &request.country);
    let source = source_of(&doc, &index, table, base);
    // A table kept to one country is read again: its values are that
    // country's.
    let read = if narrowed && !asked.is_empty() {
        query::understand(&request.query, &source.table, &aliases)
    } else {
        asked
    };
    let row = aliases.row.clone().unwrap_or_else(|| "rows".to_owned());
    let drawing = Drawing {
        row: &row,
        dark: request.dark,
    };
    let asked = Asked::Question {
        text: &request.query,
        plan: &read,
    };
    let answered = crate::answer::answer(&source.table, &source.name, asked, None, &drawing)
        .map_err(|reason| ApiError::invalid("inputs", reason))?;
    let country = zdr_chart::geo::lookup(Atlas::World, &request.country).filter(|_| narrowed);
    let mut said = answered.said.unwrap_or_default();
    if narrowed {
        let name = country.map_or(request.country.clone(), |c| c.name.clone());
        said.push_str(&format!(
            " Kept to {name} (country_code), the question naming no country."
        ));
    }
    let mut suggestions = answered.cards;
    if let (true, Some(country)) = (answered.planned, country) {
        // The country kept to, in the title too.
        for card in &mut suggestions {
            card.retitle(format!("{}, {}", card.title(), country.name));
        }
    }
    suggestions.truncate(request.count.unwrap_or(MAX_CARDS).clamp(1, MAX_CARDS));
    // A plan has chosen its own rows.
    if !answered.planned {
        at_latest_date(&mut suggestions, &source, &read, request.dark);
    }
    let kept_as = source
        .file_id
        .clone()
        .unwrap_or_else(|| format!("dataset:{}", doc.dataset.map_or("", |d| d.id.as_str())));
    let (cards, stored) = written(
        suggestions,
        &source,
        (tenant, &kept_as),
        base,
        request.locale,
    )?;
    let understood = said.trim_start();
    let answer = format!(
        "{}{} card{} from {} in index {index}{}.",
        if understood.is_empty() {
            String::new()
        } else {
            format!("{understood} ")
        },
        cards.len(),
        if cards.len() == 1 { "" } else { "s" },
        doc.name,
        if skipped > 0 {
            format!("; {skipped} later index(es) not searched")
        } else {
            String::new()
        }
    );
    Ok(Drawn {
        cards,
        stored,
        answer,
        plan: answered.plan,
        source: source.name,
    })
}

/// 4.3: the best dataset of the first group that has a relevant one,
/// drawn and adapted to the question; an empty list of cards (not an
/// error) when nothing is relevant, as both of the service's SDKs read it.
pub async fn search(
    api: &Arc<Api>,
    tenant: &Tenant,
    base: &str,
    request: SearchRequest,
) -> Result<Results, ApiError> {
    let thread = match &request.thread_id {
        Some(id) => Some(super::threads::find(api, tenant, id).await?),
        None => None,
    };
    let order = groups(api, tenant, &request).await?;
    let store = api.store().await?;
    let private = order
        .iter()
        .any(|g| !matches!(g, Group::Builtin(_) | Group::Web(_)));
    // The key's files may be as large as a table may be; the built-in
    // datasets are small.
    let memory = if private {
        table_memory(usize::MAX)
    } else {
        table_memory(BUILTIN_LARGEST)
    };
    let (t, b) = (tenant.clone(), base.to_owned());
    let asked = request.query.clone();
    let preview = request.image_ttl_minutes.map(|m| (m, request.dark));
    let (drawn, searched) = heavy(api, memory, move |stop| {
        let mut found = find(store.as_ref(), &t, &order, &request.query, stop)?;
        let drawn = match found.best.take() {
            None => Drawn {
                cards: Vec::new(),
                stored: Vec::new(),
                answer: nothing_found(&request.query, &found),
                plan: None,
                source: String::new(),
            },
            Some(best) => draw_found(store.as_ref(), &t, &b, &request, best, found.skipped, stop)?,
        };
        let debug = request.debug.then(|| debug_of(&drawn));
        Ok(((drawn, debug), found.searched))
    })
    .await?;
    let (drawn, debug) = drawn;
    keep(api, drawn.stored).await?;
    if let Some((minutes, dark)) = preview {
        super::previews::keep(api, tenant, &drawn.cards, minutes, dark).await?;
    }
    let outputs = Outputs {
        knowledge_cards: drawn.cards,
        answer: Some(drawn.answer),
        debug,
    };
    let thread_id =
        super::threads::record(api, tenant, thread, "knowledge_search", &asked, &outputs).await?;
    Ok(Results {
        outputs,
        request_id: new_id("req"),
        thread_id: Some(thread_id),
        searched_indexes: Some(searched),
    })
}

/// What `debug` shows of a search: each card's type and the plan.
fn debug_of(drawn: &Drawn) -> Debug {
    Debug {
        rules: "docs/service-api.md#how-a-question-is-read",
        model: "none: deterministic rules read the question",
        cards: drawn
            .cards
            .iter()
            .map(|c| DebugEntry {
                source: drawn.source.clone(),
                card_type: Some(c.card_type),
                columns: None,
                saved_view_id: None,
                not_drawn: None,
                plan: drawn.plan.clone(),
            })
            .collect(),
    }
}
