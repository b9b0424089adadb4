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
use crate::ids::new_id;
use crate::model::card::{Debug, DebugEntry, KnowledgeCard, Outputs, Results};
use crate::model::search::{SearchRequest, SourceIndex};
use crate::query::{self, Aliases, Drawing};
use crate::recommend::{suggest, MAX_CARDS};
use crate::store::{FileRow, Store};
use crate::table::{read_csv, Cell, Column, Kind, Table, TableError};
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

const STOPWORDS: [&str; 24] = [
    "the", "of", "and", "in", "on", "for", "to", "a", "an", "by", "with", "show", "me", "what",
    "how", "is", "are", "over", "from", "as", "per", "vs", "versus", "chart",
];

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
            && !STOPWORDS.contains(&word.as_str())
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
        .map(|c| Column {
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
    let (cards, stored, answer, searched, debug) = heavy(api, memory, move |stop| {
        let tenant = t;
        let expression = match_expression(&request.query);
        let mut searched: Vec<String> = Vec::new();
        let mut found: Option<(String, Document)> = None;
        // The groups after the one that answered were not searched.
        let mut skipped = 0;
        let mut web = false;
        let mut text_match: Option<(String, Document)> = None;
        if let Some(expression) = &expression {
            for (at, group) in order.iter().enumerate() {
                let mut docs = match group {
                    Group::Web(_) => {
                        web = true;
                        continue;
                    }
                    Group::Builtin(segment) => builtin_documents(
                        store.as_ref(),
                        &tenant,
                        Some(segment),
                        &request.query,
                        stop,
                    )?,
                    other => {
                        let files = files_of(store.as_ref(), &tenant, other)?;
                        file_documents(store.as_ref(), &tenant, files, &request.query, stop)?
                    }
                };
                // A group with nothing in it was not searched.
                if docs.is_empty() {
                    continue;
                }
                searched.push(group.name());
                // The first group whose dataset the question names (its
                // columns, values, aliases) answers; where none does, the
                // first with a full-text match.
                let ranked = rank(&docs, expression).map_err(ApiError::internal)?;
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
                        found = Some((group.name(), docs.swap_remove(best)));
                        skipped = order.len() - at - 1;
                        break;
                    }
                }
                if text_match.is_none() {
                    if let Some(best) = ranked.first().copied().filter(|b| *b < docs.len()) {
                        text_match = Some((group.name(), docs.swap_remove(best)));
                    }
                }
            }
            if found.is_none() {
                found = text_match;
            }
        }
        let mut cards = Vec::new();
        let mut stored = Vec::new();
        let mut understood: Option<String> = None;
        let mut plan = None;
        let mut source_name = String::new();
        let answer = match found {
            None => format!(
                "Nothing relevant to \"{}\" in {}.{}",
                request.query.trim(),
                if searched.is_empty() {
                    "any index (no word to search for)".to_owned()
                } else {
                    searched.join(", ")
                },
                if web {
                    " This host has no web index to search."
                } else {
                    ""
                }
            ),
            Some((index, doc)) => {
                source_name = doc.name.clone();
                let table = table_of(store.as_ref(), &tenant, &doc, stop)?;
                let aliases = match doc.dataset {
                    Some(d) => d.aliases(),
                    None => Aliases::from_context(
                        doc.file
                            .as_ref()
                            .and_then(|f| f.file_context.as_deref())
                            .unwrap_or(""),
                    )
                    .knowing(&doc.name),
                };
                // country_code narrows a table of countries unless the
                // question names its own.
                let asked = query::understand(&request.query, &table, &aliases);
                // A question that filters, groups or maps by place asks
                // across countries.
                let place =
                    |c: &usize| table.columns.get(*c).is_some_and(|c| c.kind == Kind::Place);
                let names_places = asked.filters.iter().any(|f| place(&f.column))
                    || asked.dimensions.iter().any(place)
                    || asked.chart.is_some_and(|(k, _)| k == CardKind::Choropleth);
                let rows = table.rows;
                let table = if names_places {
                    table
                } else {
                    to_country(table, &request.query, &request.country)
                };
                let narrowed = table.rows < rows;
                let file_id = doc.file.as_ref().map(|f| f.file_id.clone());
                let origin = match doc.dataset {
                    Some(d) => format!(
                        "From the built-in dataset \"{}\" (index {index}; {}; licence: {}).",
                        d.title, d.id, d.license
                    ),
                    None => format!("From the file {} of {index}.", doc.name),
                };
                let data_url = match (&file_id, doc.dataset) {
                    (Some(id), _) => format!("{b}/api/v1/beta/files/{id}/cleaned/"),
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
                    builtin: doc.dataset.map(|d| d.index.clone()),
                    context: doc.file.as_ref().and_then(|f| f.file_context.clone()),
                };
                let row = aliases.row.clone().unwrap_or_else(|| "rows".to_owned());
                let drawing = Drawing {
                    row: &row,
                    dark: request.dark,
                };
                // A table kept to one country is read again: its values
                // are that country's.
                let read = if narrowed {
                    query::understand(&request.query, &source.table, &aliases)
                } else {
                    asked.clone()
                };
                let answered = if asked.is_empty() {
                    None
                } else {
                    query::answer(&read, &request.query, &source.table, None, &drawing)
                };
                let planned = answered.as_ref().is_some_and(|a| !a.cards.is_empty());
                let mut said = answered
                    .as_ref()
                    .map(|a| a.answer.clone())
                    .unwrap_or_default();
                if narrowed {
                    let country = zdr_chart::geo::lookup(Atlas::World, &request.country)
                        .map_or(request.country.clone(), |c| c.name.clone());
                    said.push_str(&format!(
                        " Kept to {country} (country_code), the question naming no country."
                    ));
                }
                if !said.is_empty() {
                    understood = Some(said.trim_start().to_owned());
                }
                if let Some(answered) = &answered {
                    plan = Some(answered.plan.clone());
                }
                let mut suggestions = match answered {
                    Some(mut answered) if planned => {
                        // The country kept to, in the title too.
                        let country = zdr_chart::geo::lookup(Atlas::World, &request.country);
                        if let (true, Some(country)) = (narrowed, country) {
                            for card in &mut answered.cards {
                                card.retitle(format!("{}, {}", card.title(), country.name));
                            }
                        }
                        answered.cards
                    }
                    _ => suggest(&source.table, &source.name, Some(&read), None, request.dark)
                        .map_err(|reason| ApiError::invalid("inputs", reason))?,
                };
                suggestions.truncate(request.count.unwrap_or(MAX_CARDS).clamp(1, MAX_CARDS));
                // Categories of a dataset over time: their latest values
                // (a plan has chosen its own rows).
                if let Some((snapshot, date)) = latest(&source.table).filter(|_| !planned) {
                    for suggestion in &mut suggestions {
                        if matches!(
                            suggestion.kind(),
                            CardKind::Bar | CardKind::Pie | CardKind::Choropleth
                        ) {
                            let again = suggest(
                                &snapshot,
                                &source.name,
                                Some(&read),
                                Some(suggestion.kind()),
                                request.dark,
                            );
                            if let Some(mut latest) = again.ok().and_then(|mut s| s.pop()) {
                                let title = [latest.title(), " in ", &date].concat();
                                latest.retitle(title);
                                *suggestion = latest;
                            }
                        }
                    }
                }
                for mut suggestion in suggestions {
                    adapt(&mut suggestion.chart, &source.table, request.locale);
                    let card = card(&b, &source, suggestion);
                    let kept_as = file_id.clone().unwrap_or_else(|| {
                        format!("dataset:{}", doc.dataset.map_or("", |d| d.id.as_str()))
                    });
                    stored.push(card_row(&card, &tenant, &kept_as)?);
                    cards.push(card);
                }
                format!(
                    "{}{} card{} from {} in index {index}{}.",
                    understood
                        .as_ref()
                        .map(|u| format!("{u} "))
                        .unwrap_or_default(),
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
        let debug = request.debug.then(|| Debug {
            rules: "docs/service-api.md#how-a-question-is-read",
            model: "none: deterministic rules read the question",
            cards: cards
                .iter()
                .map(|c: &KnowledgeCard| DebugEntry {
                    source: source_name.clone(),
                    card_type: Some(c.card_type),
                    columns: None,
                    saved_view_id: None,
                    not_drawn: None,
                    plan: plan.clone(),
                })
                .collect(),
        });
        Ok((cards, stored, answer, searched, debug))
    })
    .await?;
    keep(api, stored).await?;
    let outputs = Outputs {
        knowledge_cards: cards,
        answer: Some(answer),
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
