//! The rule passes that read a plan around the names a question uses
//! ([`super::parse`] matches those): the chart word, the ranking, the
//! comparisons, the aggregation, the tasks, the roles of the columns named,
//! and what nothing read. Each pass reads the question's tokens against
//! the lexicon ([`super::lexicon`]) and fills part of the [`Plan`]; the
//! recommender reads the same plan, so a word is read once.

use zdr_chart::model::CardKind;

use super::aliases::Aliases;
use super::lexicon::{
    is_adjective, is_rule_word, is_stopword, Bound, AGGREGATES, AXIS_DIRECTIONS, AXIS_TARGETS,
    BY_WORDS, CHARTS, COLOUR_BY, COLOUR_EACH, COMPARES, COMPARISONS, CORRELATIONS, COUNT_COLUMNS,
    CUMULATIVES, DIRECTIONS, DISTINCTS, DISTRIBUTIONS, EXTREMES, GRAINS, GRAIN_LEADS, GROUPINGS,
    HEADLINES, LATESTS, LEANINGS, LISTINGS, LIST_LEADS, LIST_VERBS, MEASURE_TARGETS, MONTHS,
    NEGATIONS, NEGATION_GAPS, NEVER_IGNORED, NEXT_WORD_COMPARISONS, ONE_NUMBER, ORDER_WORDS,
    PERCENTAGES, PERIODS, RANGE_JOINS, RANKS, ROW_FOLLOWERS, SHARES, TABLE_LEADS, TRAILING_BOUNDS,
    TRENDS, VERSUS, YEAR_COMPARISONS,
};
use super::measure::{is_identifier, names_counts, unique_column};
use super::parse::{Meaning, Reader, Schema, MAX_NUMBER_GROUPS};
use super::plan::{format_number, Aggregate, Filter, Plan, Rank, Task, Test, DEFAULT_LIMIT};
use super::words::singular;
use crate::table::{Kind, Table};

/// Reads `question` against `table`: the names first, then each rule pass
/// in turn.
pub fn understand(question: &str, table: &Table, aliases: &Aliases) -> Plan {
    let schema = Schema::new(table);
    let mut reader = Reader::new(&schema, question);
    reader.match_names(aliases);
    let n = reader.toks.len();
    let mut q = Reading {
        r: reader,
        plan: Plan::default(),
        time_column: super::measure::date_column(table),
        read: vec![false; n],
        taken: Vec::new(),
        ranked_period: false,
        compare_word: false,
        counts_summed: false,
        lead_time: None,
        stacked: false,
        one_thing: None,
        grouped: Vec::new(),
        valued: Vec::new(),
        filter_at: Vec::new(),
        years: None,
    };
    q.years = q.time_column.and_then(|t| years_of(table, t));
    counted_noun(&mut q, table);
    chart_word(&mut q);
    ranking(&mut q);
    comparisons(&mut q);
    numbers_before_bounds(&mut q);
    split_comparisons(&mut q);
    column_values(&mut q);
    values_of_columns(&mut q);
    counted_values(&mut q);
    months(&mut q);
    years_and_decades(&mut q);
    aggregation(&mut q);
    tasks(&mut q);
    roles(&mut q);
    leading_periods(&mut q);
    guessed_group(&mut q, table);
    value_filters(&mut q);
    either_or(&mut q);
    scatter_numbers(&mut q);
    time_and_correlation(&mut q);
    one_extreme(&mut q);
    listing(&mut q, table);
    table_of_counts(&mut q, table);
    inferred_measure(&mut q, table);
    against(&mut q);
    ordering(&mut q);
    identifiers(&mut q, table);
    ignored(&mut q, aliases);
    q.plan
}

/// A question being read: the names matched, the plan the passes fill,
/// and what the passes have taken so far.
struct Reading<'s, 'a> {
    r: Reader<'s, 'a>,
    plan: Plan,
    /// The table's date column, if any.
    time_column: Option<usize>,
    /// Tokens the passes have read (numbers of a filter or a rank).
    read: Vec<bool>,
    /// Mentions a filter took (their column is filtered, not shown).
    taken: Vec<usize>,
    /// The ranking ranks periods ("the wettest month"): its grain stands.
    ranked_period: bool,
    /// The question has a word of comparison ("vs", "compare").
    compare_word: bool,
    /// The date column named first with a listing word ("years with …").
    lead_time: Option<usize>,
    /// The colour group is "stacked by".
    stacked: bool,
    /// Where "the <thing> with the most" names its thing: a group.
    one_thing: Option<usize>,
    /// The counting phrase names a column of counts: it is summed.
    counts_summed: bool,
    /// Categories named after "by": groups, whatever values of them a word
    /// also names ("deaths by type" where a type is "Death").
    grouped: Vec<usize>,
    /// Columns whose values the question names: the column, its values,
    /// where the first stands, and whether they are negated ("not equal
    /// to Fair").
    valued: Vec<Valued>,
    /// Where each filter of the plan was read, in the plan's order.
    filter_at: Vec<usize>,
    /// The first and last year of the date column, read once.
    years: Option<(f64, f64)>,
}

/// The values of one column a question names.
struct Valued {
    column: usize,
    values: Vec<String>,
    at: usize,
    negated: bool,
    /// The values are joined by "or": rows of either, not a comparison.
    either: bool,
}

impl Reading<'_, '_> {
    fn kind(&self, column: usize) -> Option<Kind> {
        self.r.schema.kind(column)
    }

    fn few_numbers(&self, column: usize) -> bool {
        self.r
            .schema
            .distinct
            .get(column)
            .is_some_and(|d| *d <= MAX_NUMBER_GROUPS)
    }

    /// A filter read at token `at`.
    fn add_filter(&mut self, filter: Filter, at: usize) {
        self.plan.filters.push(filter);
        self.filter_at.push(at);
    }

    fn mark_read(&mut self, at: usize) {
        if let Some(slot) = self.read.get_mut(at) {
            *slot = true;
        }
    }
}

/// Words between a counting phrase and what it counts at most ("how many
/// school districts").
const COUNTED_REACH: usize = 2;

/// "Number of days per month", "how many districts in each county": the
/// column a counting phrase names is what one row is, so rows are counted
/// and the column is neither summed nor a group: a category, where
/// something else groups the count (alone, "how many genres" stays); a
/// number that is an identifier, of few values, or named by a period
/// ("days" of a column `Day`: days are counted, not added up). A
/// number column named whole that is none of these, or whose name says
/// it holds counts (units, goals), holds counts of those things ("the
/// total number of teachers" of a column `teachers`): it is summed. A
/// value stays a filter ("number of female cats"), a date the axis, and
/// "distinct" before the noun keeps it.
fn counted_noun(q: &mut Reading, table: &Table) {
    if distinct_count(q) {
        return;
    }
    let Some((i, c)) = counted_mention(&q.r) else {
        return;
    };
    let r = &q.r;
    let other_group = r.mentions.iter().enumerate().any(|(j, m)| {
        j != i
            && matches!(m.meaning, Meaning::Column(o) if o != c
                && (grouped_at(r, m.start) || q.kind(o) == Some(Kind::Time)))
    });
    let (whole, period) = r.mentions.get(i).map_or((false, false), |m| {
        let words: Vec<String> = (m.start..m.end).map(|k| singular(r.word(k))).collect();
        let period = m.end == m.start + 1 && GRAINS.iter().any(|(g, _)| *g == r.word(m.start));
        (r.schema.names.get(c) == Some(&words), period)
    });
    let counted = match q.kind(c) {
        Some(Kind::Number) => {
            let identifier = table.columns.get(c).is_some_and(is_identifier);
            // "The total number of passengers" of `Total_Passengers`: named
            // whole with a total, or its values whole numbers (fractions are
            // amounts: "how many bills" of `total_bill` counts bills, "how
            // many eruptions" of minutes counts eruptions). Few values that
            // repeat are kinds (cylinders); few that do not are a small
            // table's amounts.
            let kinds =
                q.few_numbers(c) && q.r.schema.distinct.get(c).is_some_and(|d| *d < table.rows);
            let total = whole && q.r.has("total");
            let counts = names_counts(table, c) || (!kinds && (total || whole_numbers(table, c)));
            q.counts_summed = counts && !identifier && !period;
            !q.counts_summed
        }
        // "How many states in each region" where a state has several rows:
        // its distinct values are counted.
        Some(Kind::Place)
            if other_group
                && unique_column(table) != Some(c)
                && q.r.schema.distinct.get(c).is_some_and(|d| *d < table.rows) =>
        {
            q.plan.aggregate = Some(Aggregate::Distinct);
            q.plan.measures.push(c);
            q.taken.push(i);
            false
        }
        // "How many states …" where each row is a state, "how many
        // counties" where counties are what the rows list: rows counted.
        Some(Kind::Category | Kind::Place) => {
            other_group
                || unique_column(table) == Some(c)
                || super::measure::things_column(table) == Some(c)
        }
        Some(Kind::Time) | None => false,
    };
    if counted {
        // The words stay read: they say what a row is, not a column.
        q.r.mentions.remove(i);
    }
}

/// "By number of cylinders", "by the number of gears": a count phrase at
/// `at` that groups by its column and counts nothing.
fn groups_by_count(r: &Reader, at: usize) -> bool {
    let before = |k: usize| r.word(at.wrapping_sub(k));
    let lead = |w: &str| BY_WORDS.contains(&w) || w == "each" || w == "every";
    let by = lead(before(1)) || (before(1) == "the" && lead(before(2)));
    // The words counted are a column's ("cylinders" of `cyl`), not the
    // rows' ("top 5 airlines by number of strikes").
    let of = r.word(at + 1) == "of" && matches!(r.word(at), "number" | "count");
    let column_after = r.mentions.iter().any(|m| {
        matches!(m.meaning, Meaning::Column(_))
            && (m.start == at + 2 || (m.start == at + 3 && r.word(at + 2) == "the"))
    });
    by && of && column_after
}

/// "Number of distinct genres", "how many different teams": the column's
/// distinct values counted. Whether the question asks so.
fn distinct_count(q: &mut Reading) -> bool {
    let r = &q.r;
    let found = r
        .mentions
        .iter()
        .enumerate()
        .find_map(|(i, m)| match m.meaning {
            Meaning::Column(c) if DISTINCTS.contains(&r.word(m.start.wrapping_sub(1))) => {
                let lead = r.word(m.start.wrapping_sub(2));
                let counting = ["of", "many"].contains(&lead) || lead == "count";
                counting.then_some((i, c, m.start - 1))
            }
            _ => None,
        });
    let Some((i, c, at)) = found else {
        return false;
    };
    q.plan.aggregate = Some(Aggregate::Distinct);
    q.plan.measures.push(c);
    q.taken.push(i);
    q.mark_read(at);
    true
}

/// Whether every value of a number column is a whole number of at least 0.
fn whole_numbers(table: &Table, c: usize) -> bool {
    table.columns.get(c).is_some_and(|column| {
        column.cells.iter().all(|cell| match cell {
            crate::table::Cell::Number(n) => n.fract() == 0.0 && *n >= 0.0,
            _ => true,
        })
    })
}

/// The column a counting phrase names ("number of days", "how many
/// school districts"): the first mention within [`COUNTED_REACH`] words
/// after it, none of them named, "by" or "distinct".
fn counted_mention(r: &Reader) -> Option<(usize, usize)> {
    let after = AGGREGATES
        .iter()
        .filter(|(_, a)| *a == Aggregate::Count)
        .filter_map(|(w, _)| r.find(w).map(|at| (at, w.split(' ').count())))
        .filter(|(at, _)| r.used.get(*at) == Some(&false))
        .filter(|(at, _)| !groups_by_count(r, *at))
        .map(|(at, len)| at + len)
        .min()?;
    // "How many chicks weigh more than 300": the plural the count names
    // first is what is counted, rows, not the column after it.
    let noun = |k: usize| {
        let w = r.word(k);
        singular(w) != w && !is_rule_word(w) && !is_stopword(w)
    };
    let i = r.mentions.iter().position(|m| {
        m.start >= after
            && m.start <= after + COUNTED_REACH
            && (after..m.start).all(|k| {
                r.used.get(k) == Some(&false)
                    && !GROUPINGS.contains(&r.word(k))
                    && !DISTINCTS.contains(&r.word(k))
                    && !noun(k)
            })
    })?;
    match r.mentions.get(i)?.meaning {
        Meaning::Column(c) => Some((i, c)),
        Meaning::Value(..) => None,
    }
}

/// An identifier is never summed or averaged: named with a sum, an
/// average or no aggregation, its rows are counted instead; with a
/// minimum or a maximum it is shown as asked, and counted ("number of
/// distinct ids") it is what is counted. A list of rows shows it.
fn identifiers(q: &mut Reading, table: &Table) {
    let plan = &mut q.plan;
    let fits = matches!(
        plan.aggregate,
        Some(Aggregate::Min | Aggregate::Max | Aggregate::Count | Aggregate::Distinct)
    );
    if plan.listing || fits {
        return;
    }
    let before = plan.measures.len();
    plan.measures
        .retain(|m| !table.columns.get(*m).is_some_and(is_identifier));
    if plan.measures.len() < before && plan.measures.is_empty() {
        plan.aggregate = Some(Aggregate::Count);
        plan.inferred_measure = false;
    }
}

/// The chart word, longest first; "table" only as "a table", "as table",
/// "in a table"; a one-word chart word only where no name took it. And
/// the card a word leans to.
fn chart_word(q: &mut Reading) {
    for &(phrase, kind) in CHARTS {
        if let Some(at) = q.r.find(phrase) {
            if phrase == "table" && !TABLE_LEADS.contains(&q.r.word(at.wrapping_sub(1))) {
                continue;
            }
            if !phrase.contains(' ') && q.r.used.get(at) == Some(&true) {
                continue;
            }
            q.plan.chart = Some((kind, phrase));
            break;
        }
    }
    q.plan.leaning = LEANINGS
        .iter()
        .find(|(word, _)| q.r.has(word))
        .map(|(_, kind)| *kind);
}

/// Ranking: "top 5", "5 highest", "the highest", "bottom 3"; "highest X by
/// month" is the maximum per month instead; "the wettest month" ranks
/// periods.
fn ranking(q: &mut Reading) {
    for at in 0..q.r.toks.len() {
        let word = q.r.word(at).to_owned();
        let Some((_, descending)) = RANKS.iter().find(|(w, _)| *w == word) else {
            continue;
        };
        // "heaviest" names its measure and ranks by it.
        if q.r.used.get(at) == Some(&true) && !is_adjective(&word) {
            continue;
        }
        // "at least 10", "at most 5": comparisons, not rankings.
        if q.r.word(at.wrapping_sub(1)) == "at" {
            continue;
        }
        let found = rank_number(q, at);
        if let Some((_, k)) = found {
            q.mark_read(k);
        }
        let limit = found.map(|(n, _)| n);
        let over_time = TRENDS.iter().any(|t| q.r.has(t))
            || GRAINS.iter().any(|(g, _)| {
                ["by", "per", "each", "every"]
                    .iter()
                    .any(|w| q.r.find(&format!("{w} {g}")).is_some())
            });
        if limit.is_none() && over_time && EXTREMES.contains(&word.as_str()) {
            q.plan.aggregate = Some(if *descending {
                Aggregate::Max
            } else {
                Aggregate::Min
            });
            continue;
        }
        let limit = limit
            .filter(|n| n.fract() == 0.0 && *n >= 1.0 && *n <= 1000.0)
            .map(|n| n as usize);
        // "Districts with the lowest test scores", "the cheapest colors":
        // several things asked for without a number get the default.
        let assumed = limit.is_none()
            && !matches!(word.as_str(), "rank" | "ranked" | "ranking")
            && plural_asked(&q.r, at);
        // "The class with the most victims", "the year with the lowest
        // ratio": one thing asked for, the first.
        let thing = the_one_with(&q.r, at).filter(|_| limit.is_none() && !assumed);
        q.one_thing = thing;
        let limit = if thing.is_some() { Some(1) } else { limit };
        q.plan.rank = Some(Rank {
            limit: if assumed { Some(DEFAULT_LIMIT) } else { limit },
            descending: *descending,
            by_axis: false,
            assumed_limit: assumed,
        });
        q.plan.add(Task::Rank);
        // The grain ranked: "top 3 years", "the 5 months with the most".
        let next = match found {
            Some((_, k)) if k == at + 1 => at + 2,
            Some((_, k)) if k + 1 < at && !GRAINS.iter().any(|(w, _)| *w == q.r.word(at + 1)) => {
                k + 1
            }
            _ => at + 1,
        };
        if let Some((_, grain)) = GRAINS.iter().find(|(w, _)| *w == q.r.word(next)) {
            if let Some(t) = q.time_column {
                q.plan.grain = Some(*grain);
                q.plan.time = Some(t);
                q.ranked_period = true;
            }
        }
        break;
    }
}

/// The number of a ranking word at `at` and where it stands: just after
/// ("top 5"), just before ("5 highest"), or before the things ranked
/// ("the 5 months with the most deaths").
fn rank_number(q: &Reading, at: usize) -> Option<(f64, usize)> {
    let number = |k: usize| q.r.toks.get(k).and_then(|t| t.number);
    if let Some(n) = number(at + 1) {
        return Some((n, at + 1));
    }
    if let Some(n) = at.checked_sub(1).and_then(number) {
        return Some((n, at - 1));
    }
    (at.saturating_sub(5)..at)
        .find(|&k| {
            q.r.word(k.wrapping_sub(1)) == "the"
                && q.read.get(k) == Some(&false)
                && number(k).is_some_and(|n| n.fract() == 0.0)
                && comparison_at(&q.r, k + 1).is_none()
        })
        .and_then(|k| number(k).map(|n| (n, k)))
}

/// Whether what a ranking word at `at` ranks is written in the plural:
/// a category after it ("the cheapest colors") or the question's first
/// noun ("districts with the lowest …").
fn plural_asked(r: &Reader, at: usize) -> bool {
    let plural = |w: &str| w.len() > 3 && singular(w) != w && !is_rule_word(w);
    let head = (0..r.toks.len()).find(|&k| {
        let w = r.word(k);
        !(LIST_LEADS.contains(&w)
            || r.toks.get(k).is_some_and(|t| t.number.is_some())
            || RANKS.iter().any(|(rank, _)| *rank == w))
    });
    let category_after = r.mentions.iter().any(|m| {
        m.start == at + 1
            && matches!(m.meaning, Meaning::Column(c)
                if matches!(r.schema.kind(c), Some(Kind::Category | Kind::Place)))
    });
    (category_after && plural(r.word(at + 1))) || head.is_some_and(|h| h < at && plural(r.word(h)))
}

/// "The <thing> with the most …" before the ranking word at `at`, the
/// thing one word, singular: where the thing stands.
fn the_one_with(r: &Reader, at: usize) -> Option<usize> {
    let back = |k: usize| r.word(at.wrapping_sub(k));
    let k = match (back(1), back(2)) {
        ("the", "with") => 3,
        ("most" | "least", "the") if back(3) == "with" => 4,
        _ => return None,
    };
    let thing = back(k);
    let one = back(k + 1) == "the"
        && singular(thing) == thing
        && !is_rule_word(thing)
        && !thing.is_empty();
    one.then(|| at - k)
}

/// The comparison word at `at`, if one stands there: how it keeps rows
/// and how many words it spans.
fn comparison_at(r: &Reader, at: usize) -> Option<(Bound, usize)> {
    COMPARISONS.iter().find_map(|(phrase, bound)| {
        let words = phrase.split(' ').count();
        r.stands_at(at, phrase).then_some((*bound, words))
    })
}

fn test_of(bound: Bound, a: f64, b: f64) -> Test {
    match bound {
        Bound::Above => Test::Gt(a),
        Bound::AtLeast => Test::Ge(a),
        Bound::Below => Test::Lt(a),
        Bound::AtMost => Test::Le(a),
        Bound::Between => Test::Between(a, b),
        Bound::Equal => Test::Between(a, a),
        Bound::NotEqual => Test::Out(vec![format_number(a)]),
    }
}

/// Comparisons of numbers and dates: a comparison word, its number (and
/// a second for a range), and the column it compares.
fn comparisons(q: &mut Reading) {
    let n = q.r.toks.len();
    for at in 0..n {
        if q.read.get(at) == Some(&true) {
            continue;
        }
        let Some((bound, skip)) = comparison_at(&q.r, at) else {
            continue;
        };
        // "over time", "over the years": a span, not a comparison.
        let next = q.r.word(at + skip);
        let after_the = q.r.word(at + skip + 1);
        let period = |w: &str| w == "time" || GRAINS.iter().any(|(g, _)| *g == w);
        if period(next) || (next == "the" && period(after_the)) {
            continue;
        }
        let w = q.r.word(at).to_owned();
        let reach = if NEXT_WORD_COMPARISONS.contains(&w.as_str()) {
            1
        } else {
            4
        };
        let Some(first) = (at + skip..(at + skip + reach).min(n))
            .find(|&i| q.r.toks.get(i).is_some_and(|t| t.number.is_some()))
        else {
            continue;
        };
        if q.read.get(first) == Some(&true) {
            continue;
        }
        // "Maximum cases in one group": a spelled number before a noun
        // counts things, it compares nothing.
        let spelled = q.r.word(first).chars().all(char::is_alphabetic);
        if spelled && bound == Bound::Equal {
            continue;
        }
        let a = q.r.toks.get(first).and_then(|t| t.number).unwrap_or(0.0);
        let (b, last) = if bound == Bound::Between {
            let joined = RANGE_JOINS.contains(&q.r.word(first + 1));
            match q.r.toks.get(first + 2).and_then(|t| t.number) {
                Some(b) if joined => (b, first + 2),
                _ => continue,
            }
        } else {
            (a, first)
        };
        // "A magnitude of 5 or more": the words after the number bound it.
        let trailing = TRAILING_BOUNDS
            .iter()
            .find(|(phrase, _)| q.r.stands_at(last + 1, phrase))
            .filter(|_| bound == Bound::Equal);
        let (bound, last) = match trailing {
            Some((_, b)) => (*b, last + 2),
            None => (bound, last),
        };
        let year_only = YEAR_COMPARISONS.contains(&w.as_str()) && trailing.is_none();
        let Some((column, mention)) =
            compared_column(q, (at, skip, first, last), (a, b), year_only)
        else {
            continue;
        };
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        q.add_filter(Filter::new(column, test_of(bound, lo, hi)), at);
        if let Some(i) = mention {
            q.taken.push(i);
        }
        for i in at..=last {
            q.mark_read(i);
        }
    }
}

/// "Experiment 1", "shelf 3", "district 4": a number column of few
/// values named just before one of its values keeps that value.
fn column_values(q: &mut Reading) {
    for i in 0..q.r.mentions.len() {
        let Some(m) = q.r.mentions.get(i).cloned() else {
            continue;
        };
        let Meaning::Column(c) = m.meaning else {
            continue;
        };
        if q.kind(c) != Some(Kind::Number) || !q.few_numbers(c) || q.taken.contains(&i) {
            continue;
        }
        let at = m.end;
        let Some(n) = q.r.toks.get(at).and_then(|t| t.number) else {
            continue;
        };
        let holds = q.r.schema.table.columns.get(c).is_some_and(|col| {
            col.cells
                .iter()
                .any(|cell| matches!(cell, crate::table::Cell::Number(v) if *v == n))
        });
        if !holds || q.read.get(at) == Some(&true) {
            continue;
        }
        q.add_filter(Filter::new(c, Test::Between(n, n)), m.start);
        q.taken.push(i);
        q.mark_read(at);
    }
}

/// "32 mb of ram", "3 of shelf": a number, a unit perhaps, "of" and a
/// number column of few values that holds it.
fn values_of_columns(q: &mut Reading) {
    for k in 0..q.r.toks.len() {
        let Some(n) = q.r.toks.get(k).and_then(|t| t.number) else {
            continue;
        };
        if q.read.get(k) == Some(&true) {
            continue;
        }
        let unit = q.r.word(k + 1).chars().count() <= 3 && q.r.word(k + 1) != "of";
        let of = if unit { k + 2 } else { k + 1 };
        if q.r.word(of) != "of" {
            continue;
        }
        let Some(i) = q.r.mentions.iter().position(|m| m.start == of + 1) else {
            continue;
        };
        let Some(Meaning::Column(c)) = q.r.mentions.get(i).map(|m| m.meaning.clone()) else {
            continue;
        };
        let holds = q.r.schema.table.columns.get(c).is_some_and(|col| {
            col.cells
                .iter()
                .any(|cell| matches!(cell, crate::table::Cell::Number(v) if *v == n))
        });
        if q.kind(c) == Some(Kind::Number) && q.few_numbers(c) && holds {
            q.add_filter(Filter::new(c, Test::Between(n, n)), k);
            q.taken.push(i);
            (k..=of).for_each(|j| q.mark_read(j));
        }
    }
}

/// "More girls than 5000", "fewer stations than 20": the column between
/// the comparison's words.
fn split_comparisons(q: &mut Reading) {
    for at in 0..q.r.toks.len() {
        let bound = match q.r.word(at) {
            "more" | "greater" | "higher" => Bound::Above,
            "fewer" | "less" | "lower" => Bound::Below,
            _ => continue,
        };
        let Some(i) = q.r.mentions.iter().position(|m| {
            m.start == at + 1
                && q.r.word(m.end) == "than"
                && matches!(m.meaning, Meaning::Column(c) if q.kind(c) == Some(Kind::Number))
        }) else {
            continue;
        };
        let Some(m) = q.r.mentions.get(i).cloned() else {
            continue;
        };
        let Some(n) = q.r.toks.get(m.end + 1).and_then(|t| t.number) else {
            continue;
        };
        if let Meaning::Column(c) = m.meaning {
            q.add_filter(Filter::new(c, test_of(bound, n, n)), at);
            q.taken.push(i);
            (at..=m.end + 1).for_each(|k| q.mark_read(k));
        }
    }
}

/// A number before its bound and column ("4 or more bedrooms", "aged 65
/// or over"), or after "aged" alone ("aged 0", "aged 20 and 30").
fn numbers_before_bounds(q: &mut Reading) {
    for k in 0..q.r.toks.len() {
        let free = |i: usize| q.read.get(i) != Some(&true);
        let Some(a) = q.r.toks.get(k).and_then(|t| t.number).filter(|_| free(k)) else {
            continue;
        };
        let bound = TRAILING_BOUNDS
            .iter()
            .find(|(phrase, _)| q.r.stands_at(k + 1, phrase))
            .map(|(_, b)| *b);
        let len = if bound.is_some() { 2 } else { 0 };
        // "aged": the column just before the number names it.
        let aged = q.r.mentions.iter().position(|m| {
            m.end == k
                && q.r.word(m.start) == "aged"
                && matches!(m.meaning, Meaning::Column(c) if q.kind(c) == Some(Kind::Number))
        });
        let after = q.r.mentions.iter().position(|m| {
            m.start == k + 1 + len
                && matches!(m.meaning, Meaning::Column(c) if q.kind(c) == Some(Kind::Number))
        });
        let mention = match bound {
            Some(_) => after.or(aged),
            None => aged,
        };
        let Some(i) = mention else { continue };
        let Some(Meaning::Column(c)) = q.r.mentions.get(i).map(|m| m.meaning.clone()) else {
            continue;
        };
        let second = (q.r.word(k + 1) == "and" || q.r.word(k + 1) == "or")
            .then(|| q.r.toks.get(k + 2).and_then(|t| t.number))
            .flatten()
            .filter(|_| bound.is_none());
        let test = match (bound, second) {
            (Some(b), _) => test_of(b, a, a),
            (None, Some(b)) => Test::In(vec![format_number(a), format_number(b)]),
            (None, None) => Test::Between(a, a),
        };
        // "Aged 20 and 30": the two are compared, a line or bar each.
        if second.is_some() && q.r.word(k + 1) == "and" {
            q.plan.split = Some(c);
            q.plan.add(Task::Compare);
        }
        q.add_filter(Filter::new(c, test), k);
        q.taken.push(i);
        let last = k + len + usize::from(second.is_some()) * 2;
        (k..=last).for_each(|i| q.mark_read(i));
    }
}

/// The column a comparison at `at` compares, and the mention that named
/// it: one between the words and the number, or just after it; one just
/// before counts unless the numbers are years and the table has dates
/// ("fertility in China between 1960 and 1990"); years alone compare the
/// date column; else the one measure named.
fn compared_column(
    q: &Reading,
    (at, skip, first, last): (usize, usize, usize, usize),
    (a, b): (f64, f64),
    year_only: bool,
) -> Option<(usize, Option<usize>)> {
    let r = &q.r;
    let years = year_like(a) && year_like(b) && near_years(q, a);
    let just_before =
        column_just_before(r, at).filter(|_| !years || !YEAR_COMPARISONS.contains(&r.word(at)));
    let column = r
        .number_column_in(at, at + 1)
        .or_else(|| r.number_column_in(at + skip, first))
        .or(just_before)
        .or_else(|| r.number_column_in(last + 1, last + 3))
        .or_else(|| {
            (!years)
                .then(|| r.number_column_in(at.saturating_sub(3), at))
                .flatten()
        });
    match column {
        Some((i, c)) if !year_only || !year_like(a) => Some((c, Some(i))),
        _ if years => q.time_column.map(|t| (t, None)),
        _ if year_only => None,
        // "Hours with more than 20 commits" of a table of counts.
        _ if !r.mentions.iter().any(
            |m| matches!(m.meaning, Meaning::Column(c) if q.kind(c) == Some(Kind::Number)),
        ) =>
        {
            count_column(r.schema.table).map(|c| (c, None))
        }
        _ => {
            // A lone comparison applies to the one measure named.
            let named: Vec<(usize, usize)> = r
                .mentions
                .iter()
                .enumerate()
                .filter_map(|(i, m)| match m.meaning {
                    Meaning::Column(c) if q.kind(c) == Some(Kind::Number) => Some((i, c)),
                    _ => None,
                })
                .collect();
            match named.as_slice() {
                [(i, c)] => Some((*c, Some(*i))),
                _ => None,
            }
        }
    }
}

/// "Murder above 10 or assault above 250", "repair cost is at least
/// 1000": the number or date column named just before a comparison at
/// `at` (a copula between them allowed), and its mention.
fn column_just_before(r: &Reader, at: usize) -> Option<(usize, usize)> {
    let copula = matches!(
        r.word(at.wrapping_sub(1)),
        "is" | "are" | "was" | "were" | "be"
    );
    r.mentions
        .iter()
        .enumerate()
        .find_map(|(i, m)| match m.meaning {
            Meaning::Column(c)
                if (m.end == at || (copula && m.end + 1 == at))
                    && matches!(r.schema.kind(c), Some(Kind::Number | Kind::Time)) =>
            {
                Some((i, c))
            }
            _ => None,
        })
}

/// The first and last year of date column `t`.
fn years_of(table: &Table, t: usize) -> Option<(f64, f64)> {
    let column = table.columns.get(t)?;
    let (lo, hi) = column
        .cells
        .iter()
        .filter_map(super::rows::year_of)
        .fold((f64::MAX, f64::MIN), |(lo, hi), y| (lo.min(y), hi.max(y)));
    (lo <= hi).then_some((lo, hi))
}

/// Whether `year` falls within a century of the date column's years
/// ("cost over 1000" of flights in the 1990s compares no year).
fn near_years(q: &Reading, year: f64) -> bool {
    q.years
        .is_some_and(|(lo, hi)| year >= lo - 100.0 && year <= hi + 100.0)
}

fn year_like(n: f64) -> bool {
    n.fract() == 0.0 && (1000.0..=2999.0).contains(&n)
}

/// "4 cylinders", "8-cylinder": a number then a column of few numbers is
/// a value of it.
fn counted_values(q: &mut Reading) {
    let mut found: Vec<(usize, usize, usize, f64)> = Vec::new();
    for (i, m) in q.r.mentions.iter().enumerate() {
        let Meaning::Column(c) = m.meaning else {
            continue;
        };
        let Some(before) = m.start.checked_sub(1) else {
            continue;
        };
        let Some(value) = q.r.toks.get(before).and_then(|t| t.number) else {
            continue;
        };
        if q.kind(c) == Some(Kind::Number)
            && q.few_numbers(c)
            && q.read.get(before) == Some(&false)
            && !q.taken.contains(&i)
        {
            found.push((i, c, before, value));
        }
    }
    for (i, column, before, value) in found {
        q.add_filter(
            Filter::new(column, Test::In(vec![format_number(value)])),
            before,
        );
        q.taken.push(i);
        q.mark_read(before);
    }
}

/// A month of a date column: "in March 2015", "since April" (of the
/// table's last year when no year is said), "before June 2015".
fn months(q: &mut Reading) {
    let (Some(t), Some((_, last))) = (q.time_column, q.years) else {
        return;
    };
    for at in 0..q.r.toks.len() {
        let free = |k: usize| q.read.get(k) != Some(&true) && q.r.used.get(k) != Some(&true);
        let Some(token) = q.r.toks.get(at).filter(|_| free(at)) else {
            continue;
        };
        // "may" is a month only with its capital.
        let month = MONTHS
            .iter()
            .position(|names| names.contains(&token.word.as_str()))
            .filter(|_| token.word != "may" || token.capital);
        let Some(month) = month else { continue };
        let year =
            q.r.toks
                .get(at + 1)
                .and_then(|t| t.number)
                .filter(|y| year_like(*y));
        let said = year.filter(|_| free(at + 1));
        let m = said.unwrap_or(last) as i64 * 12 + month as i64;
        // "From March to May": both ends, in the table's last year.
        let to = matches!(q.r.word(at + 1), "to" | "and" | "through" | "until")
            .then(|| q.r.toks.get(at + 2))
            .flatten()
            .and_then(|t| {
                MONTHS
                    .iter()
                    .position(|names| names.contains(&t.word.as_str()))
            });
        if let (Some(end), None) = (to, said) {
            let end = last as i64 * 12 + end as i64;
            q.add_filter(Filter::new(t, Test::Months(m.min(end), m.max(end))), at);
            (at..at + 3).for_each(|k| q.mark_read(k));
            continue;
        }
        let test = match q.r.word(at.wrapping_sub(1)) {
            "since" | "from" => Test::Months(m, i64::MAX),
            "after" => Test::Months(m + 1, i64::MAX),
            "before" => Test::Months(i64::MIN, m - 1),
            "until" | "through" => Test::Months(i64::MIN, m),
            "in" | "of" | "during" => Test::Months(m, m),
            _ if said.is_some() => Test::Months(m, m),
            _ => continue,
        };
        q.add_filter(Filter::new(t, test), at);
        q.mark_read(at);
        if said.is_some() {
            q.mark_read(at + 1);
        }
    }
}

/// A bare year, or a decade ("the 1990s"), with a date column.
fn years_and_decades(q: &mut Reading) {
    let Some(t) = q.time_column else {
        return;
    };
    for at in 0..q.r.toks.len() {
        if q.read.get(at) == Some(&true) || q.r.used.get(at) == Some(&true) {
            continue;
        }
        let word = q.r.word(at);
        let decade = word
            .strip_suffix('s')
            .and_then(|d| d.parse::<f64>().ok())
            .filter(|d| year_like(*d) && *d % 10.0 == 0.0);
        let test = match (decade, q.r.toks.get(at).and_then(|t| t.number)) {
            (Some(d), _) => Test::Between(d, d + 9.0),
            (None, Some(y)) if year_like(y) => Test::Between(y, y),
            _ => continue,
        };
        q.add_filter(Filter::new(t, test), at);
        q.mark_read(at);
    }
}

/// The aggregation word that stands first, unless a ranking set one; a
/// count of a column of counts is its sum.
fn aggregation(q: &mut Reading) {
    if q.plan.aggregate.is_some() {
        return;
    }
    // "Survival rate" of a column of 0 and 1: the share of ones, a mean.
    let flag_rate = q.r.mentions.iter().find_map(|m| match m.meaning {
        Meaning::Column(c)
            if q.r.schema.yes_value(c).as_deref() == Some("1")
                && PERCENTAGES
                    .iter()
                    .chain(&["rate"])
                    .any(|w| q.r.word(m.end) == *w) =>
        {
            Some(m.end)
        }
        _ => None,
    });
    if let Some(at) = flag_rate {
        q.plan.aggregate = Some(Aggregate::Mean);
        q.mark_read(at);
        return;
    }
    // "Order by the total number": what is ordered, not an aggregation.
    // What is ordered ("order by the total number"), unless a measure
    // follows the word ("sorted by total cases": their sum).
    let measure_after = |at: usize| {
        q.r.mentions.iter().any(|m| {
            m.start == at + 1
                && matches!(m.meaning, Meaning::Column(c) if q.kind(c) == Some(Kind::Number))
        })
    };
    let ordering_at = |at: usize| {
        !measure_after(at)
            && (at.saturating_sub(3)..at).any(|k| {
                ORDER_WORDS.contains(&q.r.word(k))
                    || DIRECTIONS.iter().any(|(d, _)| q.r.stands_at(k, d))
            })
    };
    // A total the name shortens still sums ("total enrollment" of
    // `enrltot`), where a name's whole word does not ("total bill").
    let shortened = |at: usize, w: &str| {
        q.r.mentions.iter().any(|m| {
            m.start <= at
                && at < m.end
                && matches!(m.meaning, Meaning::Column(c)
                    if q.r.schema.names.get(c).is_some_and(|n| !n.iter().any(|x| x == w)))
        })
    };
    q.plan.aggregate = AGGREGATES
        .iter()
        .filter_map(|(w, a)| {
            q.r.find(w)
                .filter(|at| {
                    q.r.used.get(*at) != Some(&true) || (*a == Aggregate::Sum && shortened(*at, w))
                })
                .filter(|at| !ordering_at(*at))
                .filter(|at| *a != Aggregate::Count || !groups_by_count(&q.r, *at))
                .map(|at| (at, *a))
        })
        .min_by_key(|(at, _)| *at)
        .map(|(_, a)| match a {
            Aggregate::Count if q.counts_summed => Aggregate::Sum,
            a => a,
        });
}

/// The grain, and the tasks and cues whose words stand free of any name:
/// trend, distribution, share, correlation, comparison, a running total,
/// the value now.
fn tasks(q: &mut Reading) {
    let schema = q.r.schema;
    let r = &q.r;
    let grain = GRAINS
        .iter()
        .filter_map(|(w, g)| {
            let at = r.find(w)?;
            let ok = w.ends_with("ly")
                || *w == "annual"
                || GRAIN_LEADS.contains(&r.word(at.wrapping_sub(1)));
            // "x axis Month" of a table with a column `Month` names it.
            let ok = ok
                && !(r.word(at.wrapping_sub(1)) == "axis"
                    && schema
                        .table
                        .columns
                        .iter()
                        .any(|c| c.name.eq_ignore_ascii_case(w)));
            // A grain word that is part of a date column's name still
            // gives the grain ("by year" where the column is `year`).
            let free = r.used.get(at) != Some(&true) || r.mentions.iter().any(|m| {
                m.start <= at
                    && at < m.end
                    && matches!(m.meaning, Meaning::Column(c) if schema.kind(c) == Some(Kind::Time))
            });
            (ok && free).then_some((at, *g))
        })
        .min_by_key(|(at, _)| *at)
        .map(|(_, g)| g);
    if !q.ranked_period {
        q.plan.grain = grain;
    }
    let says = |words: &[&str]| words.iter().any(|t| q.r.has(t));
    let trend = says(TRENDS) || grain.is_some();
    let distribution = says(DISTRIBUTIONS);
    let share = says(SHARES);
    let correlation = says(CORRELATIONS);
    q.plan.cumulative = says(CUMULATIVES);
    q.plan.latest = says(LATESTS);
    q.plan.headline = q.plan.latest || says(HEADLINES);
    q.plan.grouped = says(BY_WORDS) || says(&["each", "every"]);
    // "Average salary", "maximum delay": an aggregation asked of all rows
    // is one number too; "how often" and "frequency" ask how it changes.
    let aggregated = q.plan.aggregate.is_some() && !says(&["how often", "frequency"]);
    q.plan.one_number = q.plan.headline || ((says(ONE_NUMBER) || aggregated) && !q.plan.grouped);
    q.compare_word = says(COMPARES);
    q.plan.versus = says(VERSUS);
    for (asked, task) in [
        (trend, Task::Trend),
        (distribution, Task::Distribution),
        (share, Task::Share),
        (correlation, Task::Correlation),
    ] {
        if asked {
            q.plan.add(task);
        }
    }
}

/// Whether the mention starting at `start` follows a word that groups by
/// it ("by region", "for each site").
fn grouped_at(r: &Reader, start: usize) -> bool {
    let back = |k: usize| r.word(start.wrapping_sub(k));
    // "Order by price", "from high to low by rating": what orders, not
    // a group.
    let ordered = (2..=5).any(|k| {
        ORDER_WORDS.contains(&back(k))
            || DIRECTIONS.iter().any(|(d, _)| {
                d.split(' ').count() == k - 1 && r.stands_at(start.wrapping_sub(k), d)
            })
    });
    if back(1) == "by" && ordered {
        return false;
    }
    // "by party size": a word no name took between "by" and the name.
    let loose = start
        .checked_sub(1)
        .is_some_and(|w| r.used.get(w) == Some(&false) && !is_rule_word(r.word(w)));
    // "by number of cylinders", "by the number of gears": a column of
    // counts grouped by.
    let lead = |w: &str| BY_WORDS.contains(&w) || w == "each" || w == "every";
    let counts_of = back(1) == "of"
        && back(2) == "number"
        && (lead(back(3)) || (back(3) == "the" && lead(back(4))));
    // "by sex and class": the second group as the first.
    let and_group = back(1) == "and"
        && r.mentions
            .iter()
            .find(|m| m.end + 1 == start)
            .is_some_and(|m| m.start < start - 1 && grouped_at(r, m.start));
    GROUPINGS.contains(&back(1))
        || (back(2) == "for" && back(1) == "each")
        || (loose && BY_WORDS.contains(&back(2)))
        || and_group
        || counts_of
}

/// Whether the mention starting at `start` is what the marks are coloured by.
fn coloured_at(r: &Reader, start: usize) -> bool {
    let back = |k: usize| r.word(start.wrapping_sub(k));
    (back(1) == "by" && COLOUR_BY.contains(&back(2)))
        || (back(1) == "each" && back(2) == "for" && COLOUR_EACH.contains(&back(3)))
        || (back(1) == "per" && COLOUR_EACH.contains(&back(2)))
}

/// The role of each column named: a measure, a group, the date axis, a
/// date that lists rows; the values named, by column; and every column
/// named, those grouped by first.
fn roles(q: &mut Reading) {
    let mut others: Vec<usize> = Vec::new();
    for i in 0..q.r.mentions.len() {
        let Some(m) = q.r.mentions.get(i).cloned() else {
            continue;
        };
        let by = grouped_at(&q.r, m.start) || q.one_thing == Some(m.start);
        if let Meaning::Column(c) = m.meaning {
            let few = q.kind(c) == Some(Kind::Number) && q.few_numbers(c);
            if coloured_at(&q.r, m.start)
                && (few || matches!(q.kind(c), Some(Kind::Category | Kind::Place)))
                && q.plan.colour.is_none()
            {
                q.plan.colour = Some(c);
                q.stacked = q.r.word(m.start.wrapping_sub(2)) == "stacked";
                // "colored by", "color for each": read, not left over.
                for at in (1..=4).map(|k| m.start.wrapping_sub(k)) {
                    let w = q.r.word(at);
                    let lead = ["by", "for", "each", "per", "different", "separate"].contains(&w);
                    if lead || COLOUR_BY.contains(&w) || COLOUR_EACH.contains(&w) {
                        q.mark_read(at);
                    }
                }
            }
            push(
                if by {
                    &mut q.plan.grouped_by
                } else {
                    &mut others
                },
                c,
            );
        }
        match &m.meaning {
            Meaning::Value(c, v) => match q.valued.iter_mut().find(|d| d.column == *c) {
                Some(d) => {
                    if !d.values.contains(v) {
                        d.values.push(v.clone());
                        d.either = q.r.word(m.start.wrapping_sub(1)) == "or";
                    }
                }
                None => {
                    let negated = negated_at(&q.r, m.start);
                    q.valued.push(Valued {
                        column: *c,
                        values: vec![v.clone()],
                        at: m.start,
                        negated,
                        either: false,
                    });
                }
            },
            Meaning::Column(_) if q.taken.contains(&i) => {}
            Meaning::Column(c) => column_role(q, *c, (m.start, m.end), by),
        }
    }
    // "Survival by class": what follows "by" is along x, what stands
    // before it colours.
    let (by, before): (Vec<usize>, Vec<usize>) = q
        .plan
        .dimensions
        .iter()
        .partition(|d| q.plan.grouped_by.contains(d));
    if !by.is_empty() && !before.is_empty() && q.plan.dimensions.first() != by.first() {
        q.plan.dimensions = by.into_iter().chain(before).collect();
    }
    q.plan.named = q.plan.grouped_by.clone();
    for c in others {
        push(&mut q.plan.named, c);
    }
}

fn column_role(q: &mut Reading, c: usize, (start, end): (usize, usize), by: bool) {
    match q.kind(c) {
        // "years with more than …", "months when …": rows listed.
        Some(Kind::Time) if start <= 1 && LISTINGS.contains(&q.r.word(end)) => {
            q.lead_time = Some(c);
        }
        Some(Kind::Time) if !q.plan.filters.iter().any(|f| f.column == c) || by => {
            // "by site and year": the date as a second group.
            if q.r.word(start.wrapping_sub(1)) == "and" && !q.plan.dimensions.is_empty() {
                q.plan.time_group = true;
            }
            q.plan.time = Some(c);
        }
        Some(Kind::Time) => {}
        Some(Kind::Number) => {
            // "x axis Month", or a period's number ("months" of `Month`
            // 5–9) with few values: what the values stand on.
            let axis = axis_named(&q.r, start);
            let period = q.few_numbers(c) && names_period(q.r.schema.table, c) && axis.is_none();
            // "Top region by revenue" ranks by the measure after "by";
            // "median length by dose, highest first" named it before.
            let ranked_thing = q.one_thing == Some(start) || !q.plan.measures.is_empty();
            let grouped = by && q.few_numbers(c) && (!q.plan.has(Task::Rank) || ranked_thing);
            if axis == Some(true) || grouped || period {
                push(&mut q.plan.dimensions, c);
            } else {
                push(&mut q.plan.measures, c);
            }
        }
        Some(Kind::Category | Kind::Place) => {
            if by {
                push(&mut q.grouped, c);
            }
            push(&mut q.plan.dimensions, c)
        }
        None => {}
    }
}

/// "Bar chart x axis Month y axis total Ozone": `Some(true)` for a column
/// named just after "x axis", `Some(false)` after "y axis".
fn axis_named(r: &Reader, start: usize) -> Option<bool> {
    let back = |k: usize| r.word(start.wrapping_sub(k));
    let axis = back(1) == "axis" || (back(2) == "axis" && matches!(back(1), "the" | "is" | "of"));
    let letter = if back(1) == "axis" { back(2) } else { back(3) };
    match (axis, letter) {
        (true, "x") => Some(true),
        (true, "y") => Some(false),
        _ => None,
    }
}

/// Whether a number column is named as a period (`Month`, `Day`, `Hour`,
/// `Weekday`): its values label points in time, never to be summed.
fn names_period(table: &Table, c: usize) -> bool {
    table.columns.get(c).is_some_and(|column| {
        super::words::name_words(&column.name).iter().any(|w| {
            matches!(
                w.as_str(),
                "month" | "day" | "hour" | "weekday" | "week" | "quarter" | "minute"
            )
        })
    })
}

/// "by disaster type": words no column has, after "by", beside a measure
/// named, in a table of one category: that category, and the answer says
/// so. Never in a ranking ("top region by revenue": "by" names the
/// measure there).
fn guessed_group(q: &mut Reading, table: &Table) {
    let plan = &q.plan;
    let measured = !plan.measures.is_empty() || plan.aggregate == Some(Aggregate::Count);
    if !plan.dimensions.is_empty() || plan.split.is_some() || !measured || plan.has(Task::Rank) {
        return;
    }
    let categories: Vec<usize> = (0..table.columns.len())
        .filter(|c| matches!(q.kind(*c), Some(Kind::Category | Kind::Place)))
        .collect();
    let r = &q.r;
    let n = r.toks.len();
    let after_by = (0..n).find(|&at| {
        BY_WORDS.contains(&r.word(at))
            && r.used.get(at + 1) == Some(&false)
            && r.toks
                .get(at + 1)
                .is_some_and(|t| t.number.is_none() && !is_rule_word(&t.word))
    });
    let (Some(at), [only]) = (after_by, categories.as_slice()) else {
        return;
    };
    if q.valued.iter().any(|d| d.column == *only) {
        return;
    }
    let words: Vec<String> = (at + 1..n)
        .take_while(|i| {
            r.used.get(*i) == Some(&false)
                && r.toks
                    .get(*i)
                    .is_some_and(|t| t.number.is_none() && !is_stopword(&t.word))
        })
        .filter_map(|i| r.toks.get(i).map(|t| t.word.clone()))
        .collect();
    for i in at + 1..at + 1 + words.len() {
        if let Some(u) = q.r.used.get_mut(i) {
            *u = true;
        }
    }
    q.plan.guessed = Some((words.join(" "), *only));
    q.plan.dimensions.push(*only);
}

/// A column named and one of its values: the value is the filter; two
/// values or more are compared, one series (or bar) each.
fn value_filters(q: &mut Reading) {
    for named in std::mem::take(&mut q.valued) {
        let column = named.column;
        if q.grouped.contains(&column) && !named.negated {
            continue;
        }
        if named.negated {
            // "where cut is not equal to Fair": cut is the filter's, no group.
            if !q.grouped.contains(&column) {
                q.plan.dimensions.retain(|d| *d != column);
            }
            q.add_filter(Filter::new(column, Test::Out(named.values)), named.at);
            continue;
        }
        // Every value of the column named ("how many are gram positive and
        // how many negative"): a group, no filter.
        let every =
            q.r.schema.distinct.get(column) == Some(&named.values.len()) && named.values.len() >= 2;
        if every {
            push(&mut q.plan.dimensions, column);
            continue;
        }
        q.plan.dimensions.retain(|d| *d != column);
        // "Sat or Sun" keeps either; "Texas and California" compares them,
        // unless the bars are of things each in one of them ("districts in
        // Los Angeles and San Diego": a colour would repeat the label).
        let table = q.r.schema.table;
        let within = q
            .plan
            .dimensions
            .iter()
            .any(|d| nested(table, *d, column, &named.values));
        if named.values.len() >= 2 && !named.either && !within {
            q.plan.split = Some(column);
            q.plan.add(Task::Compare);
        }
        q.add_filter(Filter::new(column, Test::In(named.values)), named.at);
    }
}

/// Whether each value of column `inner` stands in one of the `values` of
/// `outer` (districts in counties), over the rows of those values.
fn nested(table: &Table, inner: usize, outer: usize, values: &[String]) -> bool {
    let (Some(a), Some(b)) = (table.columns.get(inner), table.columns.get(outer)) else {
        return false;
    };
    let mut of = std::collections::HashMap::new();
    a.cells.iter().zip(&b.cells).all(|(x, y)| {
        let (Some(x), Some(y)) = (crate::recommend::text(x), crate::recommend::text(y)) else {
            return true;
        };
        if !values.iter().any(|v| v.eq_ignore_ascii_case(y)) {
            return true;
        }
        *of.entry(x).or_insert(y) == y
    })
}

/// Whether the value named at `start` is negated.
fn negated_at(r: &Reader, start: usize) -> bool {
    let mut at = start;
    for _ in 0..4 {
        let Some(before) = at.checked_sub(1) else {
            return false;
        };
        let word = r.word(before);
        if NEGATIONS.contains(&word) {
            return true;
        }
        if !NEGATION_GAPS.contains(&word) || r.used.get(before) == Some(&true) {
            return false;
        }
        at = before;
    }
    false
}

/// "lg = AL or team = SFN", "murder above 10 or assault above 250": two
/// filters of different columns with "or" between them keep the rows
/// either keeps, as one filter.
fn either_or(q: &mut Reading) {
    let n = q.r.toks.len();
    for p in (0..n).filter(|&p| q.r.word(p) == "or") {
        let before = (0..q.filter_at.len())
            .filter(|&i| q.filter_at[i] < p)
            .max_by_key(|&i| q.filter_at[i]);
        let after = (0..q.filter_at.len())
            .filter(|&i| q.filter_at[i] > p && q.filter_at[i] <= p + 4)
            .min_by_key(|&i| q.filter_at[i]);
        let (Some(a), Some(b)) = (before, after) else {
            continue;
        };
        let (Some(fa), Some(fb)) = (q.plan.filters.get(a), q.plan.filters.get(b)) else {
            continue;
        };
        if fa.column == fb.column || !fb.or.is_empty() {
            continue;
        }
        let moved = q.plan.filters.remove(b);
        q.filter_at.remove(b);
        if let Some(kept) = q.plan.filters.get_mut(a) {
            kept.or.push((moved.column, moved.test));
            kept.or.extend(moved.or);
        }
    }
}

/// A date column named makes a trend and a trend takes the table's date
/// column; "X vs Y" of two measures is a correlation.
/// A scatter asked for, or a correlation ("the correlation between Age
/// and Num_of_Staff"), plots numbers: a number column taken for a group
/// ("between Age") is a measure, in the question's order.
fn scatter_numbers(q: &mut Reading) {
    let scatter =
        matches!(q.plan.chart, Some((CardKind::Scatter, _))) || q.plan.has(Task::Correlation);
    if !scatter {
        return;
    }
    // A date column of years named beside a measure ("scatter of season
    // and attendance") plots as numbers too.
    let years = q
        .plan
        .time
        .filter(|_| q.plan.measures.len() == 1 && q.years.is_some_and(|(lo, hi)| lo < hi));
    let numbers: Vec<usize> = q
        .plan
        .dimensions
        .iter()
        .copied()
        .filter(|d| q.kind(*d) == Some(Kind::Number))
        .chain(years)
        .collect();
    if numbers.is_empty() {
        return;
    }
    q.plan.dimensions.retain(|d| !numbers.contains(d));
    if years.is_some() {
        q.plan.time = None;
    }
    let order: Vec<usize> = q
        .r
        .mentions
        .iter()
        .filter_map(|m| match m.meaning {
            Meaning::Column(c) if numbers.contains(&c) || q.plan.measures.contains(&c) => Some(c),
            _ => None,
        })
        .collect();
    let mut measures = Vec::new();
    for c in order {
        push(&mut measures, c);
    }
    q.plan.measures = measures;
}

/// "Highest co2 reading", "best high jump": a superlative of one measure
/// over nothing, no number, no "which": the one extreme value. "200 m
/// times, fastest first": the fastest time is the lowest.
fn one_extreme(q: &mut Reading) {
    let Some(rank) = q.plan.rank else {
        return;
    };
    let word =
        q.r.toks
            .iter()
            .map(|t| t.word.as_str())
            .find(|w| RANKS.iter().any(|(r, _)| r == w))
            .unwrap_or_default()
            .to_owned();
    let timed = q.plan.measures.iter().any(|m| {
        q.r.schema.names.get(*m).is_some_and(|n| {
            n.iter().any(|w| {
                ["time", "run", "sec", "second", "duration", "minute"]
                    .iter()
                    .any(|t| w.starts_with(t))
            })
        })
    });
    if timed && matches!(word.as_str(), "fastest" | "quickest" | "slowest") {
        if let Some(r) = q.plan.rank.as_mut() {
            r.descending = word == "slowest";
        }
    }
    let asking_which = [
        "which", "what", "who", "whose", "where", "when", "sort", "sorted", "order",
    ]
    .iter()
    .any(|w| q.r.has(w));
    let listing_word = matches!(
        word.as_str(),
        "top" | "bottom" | "rank" | "ranked" | "ranking" | "leading"
    );
    let plan = &mut q.plan;
    let alone = plan.dimensions.is_empty()
        && plan.time.is_none()
        && plan.grain.is_none()
        && plan.measures.len() == 1
        && plan.aggregate.is_none()
        && plan.chart.is_none();
    if rank.limit.is_none() && !rank.by_axis && alone && !asking_which && !listing_word {
        plan.aggregate = Some(if rank.descending {
            Aggregate::Max
        } else {
            Aggregate::Min
        });
        plan.rank = None;
        plan.tasks.retain(|t| *t != Task::Rank);
        plan.one_number = !plan.grouped;
    }
}

fn time_and_correlation(q: &mut Reading) {
    let unique = unique_column(q.r.schema.table);
    let plan = &mut q.plan;
    if plan.time.is_some() {
        plan.add(Task::Trend);
    }
    // "Murder vs urban population for states with …": the column naming
    // each row is what the points are, no group.
    let rows_named = plan.versus
        && !plan.dimensions.is_empty()
        && plan.dimensions.iter().all(|d| Some(*d) == unique);
    if q.compare_word
        && plan.split.is_none()
        && plan.measures.len() >= 2
        && (plan.dimensions.is_empty() || rows_named)
    {
        plan.add(Task::Correlation);
    }
    if plan.has(Task::Trend) && plan.time.is_none() {
        plan.time = q.time_column;
    }
    // "… over time stacked by sex": the groups stack as areas.
    if q.stacked && plan.chart.is_none() && plan.has(Task::Trend) {
        plan.chart = Some((CardKind::StackedAreaTimeseries, "stacked"));
    }
}

/// Rows asked for, not a summary of them: "players with more than 40 home
/// runs", "flights from LAX delayed more than 60 minutes", "list states in
/// descending order of urban population", "show names and scores where
/// county = Fresno", "the 5 heaviest cats" (a table without a column that
/// names its rows). Never with an aggregation, a group, a chart word or a
/// task. The column naming the rows is shown beside the values.
fn listing(q: &mut Reading, table: &Table) {
    let plan = &q.plan;
    let summary = plan.chart.is_some()
        || plan.aggregate.is_some()
        || plan.grouped
        || plan.split.is_some()
        || plan.grain.is_some()
        || [
            Task::Distribution,
            Task::Share,
            Task::Correlation,
            Task::Trend,
        ]
        .iter()
        .any(|t| plan.has(*t));
    if summary || plan.listing {
        return;
    }
    let r = &q.r;
    let n = r.toks.len();
    // The things asked for: the first word past leads, numbers, ranks and
    // adjectives ("the 10 most expensive houses").
    let head = (0..n).find(|&at| {
        let w = r.word(at);
        !(LIST_LEADS.contains(&w)
            || r.toks.get(at).is_some_and(|t| t.number.is_some())
            || RANKS.iter().any(|(k, _)| *k == w)
            || (is_adjective(w) && plan.rank.is_some()))
    });
    let Some(head) = head else {
        return;
    };
    // A span of dates keeps periods, not rows to list ("from March to May").
    let filtered = plan
        .filters
        .iter()
        .any(|f| r.schema.kind(f.column) != Some(Kind::Time));
    let named = r
        .mentions
        .iter()
        .any(|m| matches!(m.meaning, Meaning::Column(_)));
    let ordered = plan.rank.is_some()
        || (0..n).any(|k| {
            ORDER_WORDS.contains(&r.word(k)) || DIRECTIONS.iter().any(|(d, _)| r.stands_at(k, d))
        });
    let verb = LIST_VERBS.contains(&r.word(0)) && named && (filtered || ordered);
    let followed = filtered
        && (head + 1..(head + 3).min(n)).any(|k| {
            ROW_FOLLOWERS.contains(&r.word(k))
                || (comparison_at(r, k).is_some() && !YEAR_COMPARISONS.contains(&r.word(k)))
        });
    // The table shows the column naming its rows first (`table_of`).
    let label = unique_column(table).or_else(|| super::measure::things_column(table));
    let head_named = r.mentions.iter().any(|m| m.start <= head && head < m.end);
    let ranked_rows =
        plan.rank.is_some() && !head_named && label.is_none() && !is_rule_word(r.word(head));
    q.plan.listing = verb || followed || ranked_rows;
    if let Some(t) = q.lead_time.filter(|_| q.plan.listing) {
        push(&mut q.plan.dimensions, t);
    }
}

/// "Months where …", "hours with …": the periods of the date column are
/// the rows listed, as "years with …" names the column itself.
fn leading_periods(q: &mut Reading) {
    let Some(t) = q.time_column.filter(|_| q.lead_time.is_none()) else {
        return;
    };
    let r = &q.r;
    let lead = (0..2.min(r.toks.len())).find(|&at| {
        let word = r.word(at);
        PERIODS.contains(&word)
            && LISTINGS.contains(&r.word(at + 1))
            && r.used.get(at) != Some(&true)
    });
    if let Some(at) = lead {
        q.lead_time = Some(t);
        q.mark_read(at);
    }
}

/// Rows that are counts already ("year, job, sex, count"), no measure
/// named: what they count is the sum of the count column, never the
/// number of rows.
fn table_of_counts(q: &mut Reading, table: &Table) {
    let plan = &mut q.plan;
    let counting = plan.aggregate == Some(Aggregate::Count);
    // "Number of rows", "how many hours had …": rows, or the periods they
    // stand for, are counted, not the counts they hold.
    let rows_asked = ["row", "rows", "record", "records", "entries", "lines"]
        .iter()
        .any(|w| q.r.has(w))
        || (counting
            && ["how many", "number of"]
                .iter()
                .any(|lead| PERIODS.iter().any(|p| q.r.has(&format!("{lead} {p}")))));
    let asked = !plan.is_empty() || plan.aggregate.is_some();
    if plan.measures.is_empty() && asked && !plan.listing && !rows_asked {
        if let Some(c) = count_column(table) {
            plan.measures.push(c);
            if counting {
                plan.aggregate = Some(Aggregate::Sum);
            }
        }
    }
}

/// No measure named: a table of one measure shows it; a comparison's
/// column is what a list of rows or a rate shows.
fn inferred_measure(q: &mut Reading, table: &Table) {
    let plan = &mut q.plan;
    let counting = plan.aggregate == Some(Aggregate::Count);
    if !plan.measures.is_empty() || counting || plan.is_empty() {
        return;
    }
    let schema = q.r.schema;
    let compared = plan
        .filters
        .iter()
        .find(|f| !matches!(f.test, Test::In(_)) && schema.kind(f.column) == Some(Kind::Number))
        .map(|f| f.column);
    let numbers: Vec<usize> = (0..table.columns.len())
        .filter(|c| schema.kind(*c) == Some(Kind::Number))
        .filter(|c| !table.columns.get(*c).is_some_and(is_identifier))
        .collect();
    if let (Some(f), Some(t)) = (compared, q.lead_time) {
        plan.listing = plan.chart.is_none();
        plan.measures.push(f);
        push(&mut plan.dimensions, t);
    } else if let (Some(_), true) = (compared, plan.listing) {
        // Rows listed show every column they were compared on.
        for f in &plan.filters {
            let tests =
                std::iter::once((f.column, &f.test)).chain(f.or.iter().map(|(c, t)| (*c, t)));
            for (c, test) in tests {
                if !matches!(test, Test::In(_) | Test::Out(_))
                    && schema.kind(c) == Some(Kind::Number)
                {
                    push(&mut plan.measures, c);
                }
            }
        }
    } else if let Some(f) = compared {
        let alone =
            plan.dimensions.is_empty() && !plan.has(Task::Trend) && plan.aggregate.is_none();
        if alone && plan.chart.is_none() {
            plan.listing = true;
            plan.measures.push(f);
        } else if !super::measure::is_flow(table, f)
            || plan
                .dimensions
                .iter()
                .any(|d| Some(*d) == unique_column(table))
        {
            // Bars of things one row each ("names of the animals with …"):
            // their values, not counts of one.
            plan.measures.push(f);
        }
    } else if let [only] = numbers.as_slice() {
        if !plan.filters.iter().any(|f| f.column == *only) {
            plan.measures.push(*only);
        }
    }
    plan.inferred_measure = !plan.measures.is_empty();
}

/// "Ozone against temperature" plots ozone up the y axis and temperature
/// along the x axis: the measure after "against" comes first (a scatter's
/// x); "A vs B" keeps A first.
fn against(q: &mut Reading) {
    let r = &q.r;
    let Some(p) = (0..r.toks.len()).find(|&p| r.word(p) == "against") else {
        return;
    };
    let measure = |m: &super::parse::Mention| match m.meaning {
        Meaning::Column(c) if q.plan.measures.contains(&c) => Some(c),
        _ => None,
    };
    let before = r
        .mentions
        .iter()
        .rev()
        .filter(|m| m.end <= p)
        .find_map(measure);
    let after = r.mentions.iter().filter(|m| m.start > p).find_map(measure);
    let (Some(a), Some(b)) = (before, after) else {
        return;
    };
    let measures = &mut q.plan.measures;
    if let (Some(at_a), Some(at_b)) = (
        measures.iter().position(|c| *c == a),
        measures.iter().position(|c| *c == b),
    ) {
        if at_b > at_a {
            measures.remove(at_b);
            measures.insert(at_a, b);
        }
    }
}

/// An order asked without a ranking word: "sort from high to low", "in
/// ascending order of the total", "order by the x-axis", "from A to Z",
/// "sorted by month". What follows the order word or the direction says
/// what is ordered: the x axis (its column, a grain, "x", "name", or an
/// alphabetical direction) or the measure ("y", "the total", its column).
/// "Order by" alone is ascending, as in SQL.
fn ordering(q: &mut Reading) {
    let r = &q.r;
    let n = r.toks.len();
    let free = |at: usize| r.used.get(at) != Some(&true) && q.read.get(at) != Some(&true);
    let direction = (0..n).find_map(|at| {
        DIRECTIONS
            .iter()
            .find(|(p, _)| free(at) && r.stands_at(at, p))
            .map(|(p, d)| (at, p.split(' ').count(), *p, *d))
    });
    let order_at = (0..n).find(|&at| free(at) && ORDER_WORDS.contains(&r.word(at)));
    if direction.is_none() && order_at.is_none() {
        return;
    }
    let mut by_axis = direction.is_some_and(|(_, _, p, _)| AXIS_DIRECTIONS.contains(&p));
    let mut read: Vec<usize> = Vec::new();
    // "Rank days by the number": what is ranked comes first, its order
    // after "by".
    let order_from = order_at.and_then(|at| match r.word(at) {
        "rank" | "ranked" | "ranking" => (at + 1..(at + 5).min(n)).find(|&k| r.word(k) == "by"),
        _ => Some(at + 1),
    });
    let starts = [order_from, direction.map(|(at, len, _, _)| at + len)];
    let mut by_measure = false;
    for start in starts.into_iter().flatten() {
        match order_target(q, start, &mut read) {
            Some((true, column)) => {
                by_axis = true;
                axis_orders(q, start, column);
            }
            Some((false, _)) => by_measure = true,
            None => {}
        }
    }
    if by_measure && !direction.is_some_and(|(_, _, p, _)| AXIS_DIRECTIONS.contains(&p)) {
        by_axis = false;
    }
    let descending = direction.is_some_and(|(_, _, _, d)| d);
    // Ordered by the measure: bars in that order, not a line.
    if !by_axis {
        q.plan.add(Task::Rank);
    }
    match &mut q.plan.rank {
        Some(rank) => {
            rank.by_axis |= by_axis;
            if let Some((_, _, _, d)) = direction {
                rank.descending = d;
            }
        }
        None => {
            q.plan.rank = Some(Rank {
                limit: None,
                descending,
                by_axis,
                assumed_limit: false,
            })
        }
    }
    if let Some((at, len, _, _)) = direction {
        read.extend(at..at + len);
    }
    read.extend(order_at);
    for at in read {
        q.mark_read(at);
    }
}

/// The x axis ordered by `column` (named from `start`): it, and a name
/// right after it ("sorted by order name"), are no group but the first;
/// the axis named again ("by party size, in ascending order of size") is
/// no measure.
fn axis_orders(q: &mut Reading, start: usize, column: Option<usize>) {
    let end = column.and_then(|c| {
        q.r.mentions
            .iter()
            .find(|m| m.start >= start && m.meaning == Meaning::Column(c))
            .map(|m| m.end)
    });
    let next = end.and_then(|e| {
        q.r.mentions
            .iter()
            .find(|m| m.start == e)
            .and_then(|m| match m.meaning {
                Meaning::Column(c) => Some(c),
                Meaning::Value(..) => None,
            })
    });
    for c in column.into_iter().chain(next) {
        if q.plan.dimensions.first() != Some(&c) {
            q.plan.dimensions.retain(|d| *d != c);
        }
    }
    if let Some(c) = column.filter(|c| q.plan.dimensions.contains(c)) {
        q.plan.measures.retain(|m| *m != c);
    }
}

/// What the words from `start` say an order orders: `Some(true)` the x
/// axis, `Some(false)` the measure; the words read are added to `read`.
fn order_target(q: &Reading, start: usize, read: &mut Vec<usize>) -> Option<(bool, Option<usize>)> {
    const LEADS: &[&str] = &[
        "by",
        "of",
        "the",
        "in",
        "on",
        "to",
        "according",
        "order",
        "their",
        "its",
    ];
    let r = &q.r;
    for at in start..(start + 5).min(r.toks.len()) {
        let word = r.word(at);
        if let Some(m) = r.mentions.iter().find(|m| m.start == at) {
            return match m.meaning {
                Meaning::Column(c) if q.plan.dimensions.contains(&c) || q.plan.time == Some(c) => {
                    Some((true, Some(c)))
                }
                Meaning::Column(c) if q.plan.measures.contains(&c) => Some((false, Some(c))),
                Meaning::Column(c) => Some((q.kind(c) != Some(Kind::Number), Some(c))),
                Meaning::Value(..) => None,
            };
        }
        if AXIS_TARGETS.contains(&word) || GRAINS.iter().any(|(g, _)| *g == word) {
            read.push(at);
            return Some((true, None));
        }
        if MEASURE_TARGETS.contains(&word) {
            read.push(at);
            return Some((false, None));
        }
        if !LEADS.contains(&word) && word != "axis" {
            return None;
        }
        read.push(at);
    }
    None
}

/// The one number column named as counts ([`COUNT_COLUMNS`]), if any.
fn count_column(table: &Table) -> Option<usize> {
    let mut found = table.columns.iter().enumerate().filter(|(_, c)| {
        c.kind == Kind::Number && COUNT_COLUMNS.contains(&c.name.trim().to_lowercase().as_str())
    });
    match (found.next(), found.next()) {
        (Some((at, _)), None) => Some(at),
        _ => None,
    }
}

/// The words nothing read, for the answer to say (at most 12).
fn ignored(q: &mut Reading, aliases: &Aliases) {
    let r = &q.r;
    for (at, token) in r.toks.iter().enumerate() {
        let w = token.word.as_str();
        if r.used.get(at) == Some(&true)
            || q.read.get(at) == Some(&true)
            || token.number.is_some()
            || is_rule_word(w)
            || w.chars().count() < 3
            || RANKS.iter().any(|(k, _)| *k == w)
            || CHARTS.iter().any(|(k, _)| k.split(' ').any(|p| p == w))
            || NEVER_IGNORED.contains(&w)
            || aliases.known.iter().any(|k| k == w)
            || aliases
                .row
                .as_deref()
                .is_some_and(|r| singular(r) == singular(w))
        {
            continue;
        }
        if !q.plan.ignored.iter().any(|i| i == w) && q.plan.ignored.len() < 12 {
            q.plan.ignored.push(token.word.clone());
        }
    }
}

fn push(list: &mut Vec<usize>, c: usize) {
    if !list.contains(&c) {
        list.push(c);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use zdr_limits::Stop;

    use super::*;
    use crate::table::read_csv;

    /// Trains: an id numbering the rows, a name, a station code, the day
    /// of the month (1 to 3, repeated), passengers (40 values, repeated)
    /// and units (a count).
    fn trains() -> Table {
        let mut csv = String::from("train_id,name,station code,county,day,passengers,units\n");
        for i in 1..=48 {
            let name = ["Express", "Local", "Night"][i % 3];
            let county = ["Kern", "Fresno"][i % 2];
            csv.push_str(&format!(
                "{i},{name},S{},{county},{},{},{}\n",
                i % 4,
                i % 3 + 1,
                100 + i * 7 % 40,
                i % 5 + 2
            ));
        }
        read_csv(csv.as_bytes(), &Stop::never()).unwrap()
    }

    fn read(question: &str) -> (Plan, Table) {
        let table = trains();
        (understand(question, &table, &Aliases::default()), table)
    }

    fn names(columns: &[usize], table: &Table) -> Vec<String> {
        columns
            .iter()
            .map(|c| table.columns[*c].name.clone())
            .collect()
    }

    fn identifiers_of(table: &Table) -> Vec<&str> {
        table
            .columns
            .iter()
            .filter(|c| is_identifier(c))
            .map(|c| c.name.as_str())
            .collect()
    }

    #[test]
    fn an_identifier_is_named_like_one_or_numbers_the_rows() {
        assert_eq!(identifiers_of(&trains()), ["train_id", "station code"]);
        let csv = "row,salary,order no,Day\n".to_owned()
            + &(1..=12)
                .map(|i| format!("{i},{},{},{}\n", 40_000 + i * 7_919, 900 + i, i % 4))
                .collect::<String>();
        let table = read_csv(csv.as_bytes(), &Stop::never()).unwrap();
        // Unique integers that do not number the rows may be amounts.
        assert_eq!(identifiers_of(&table), ["row", "order no"]);
    }

    /// `question` counts rows grouped by `by` alone, no measure.
    fn counts_rows_by(question: &str, by: &str) {
        let (plan, table) = read(question);
        assert_eq!(plan.aggregate, Some(Aggregate::Count), "{question}");
        assert!(plan.measures.is_empty(), "{question}: {plan:?}");
        assert_eq!(names(&plan.dimensions, &table), [by], "{question}");
    }

    #[test]
    fn number_of_x_for_each_y_counts_rows_by_y() {
        for question in [
            "number of trains for each county",
            "how many trains per county",
            "count of trains by county",
            "total number of trains by county",
        ] {
            counts_rows_by(question, "county");
        }
    }

    #[test]
    fn a_counted_category_is_no_group_when_another_groups_the_count() {
        let (plan, table) = read("number of names for each county");
        assert_eq!(names(&plan.dimensions, &table), ["county"]);
        // Nothing else groups: the names stay what the count is of.
        let (plan, table) = read("how many names");
        assert_eq!(names(&plan.dimensions, &table), ["name"]);
        // A group after the counting phrase is no counted noun.
        let (plan, table) = read("stacked bar of count by name, colored by county");
        assert_eq!(names(&plan.dimensions, &table), ["name", "county"]);
        let (plan, table) = read("number of rides per name, colored by county");
        assert_eq!(names(&plan.dimensions, &table), ["name", "county"]);
    }

    #[test]
    fn a_counted_number_is_counted_not_summed() {
        counts_rows_by("number of days by name", "name");
        // The counted noun is no comparison's column.
        let (plan, table) = read("how many days had passengers above 120");
        let filters: Vec<String> = plan
            .filters
            .iter()
            .map(|f| super::super::plan::filter_text(&|c| table.columns[c].name.clone(), f))
            .collect();
        assert_eq!(filters, ["passengers > 120"]);
        assert!(plan.measures.is_empty(), "{plan:?}");
        // A column of counts is what "number of" names: it is summed.
        for question in [
            "number of units by name",
            "total number of passengers by name",
        ] {
            let (plan, table) = read(question);
            assert_eq!(plan.aggregate, Some(Aggregate::Sum), "{question}");
            assert_eq!(plan.measures.len(), 1, "{question}");
            assert!(names(&plan.measures, &table)[0] != "day", "{question}");
        }
    }

    #[test]
    fn total_number_counts_and_total_sums() {
        let (plan, _) = read("bar chart x axis name y axis the total number");
        assert_eq!(plan.aggregate, Some(Aggregate::Count));
        let (plan, table) = read("total passengers by name");
        assert_eq!(plan.aggregate, Some(Aggregate::Sum));
        assert_eq!(names(&plan.measures, &table), ["passengers"]);
    }

    #[test]
    fn an_identifier_is_never_summed_or_averaged() {
        for question in [
            "total train id by name",
            "average train id by name",
            "train id by name",
        ] {
            counts_rows_by(question, "name");
        }
    }

    #[test]
    fn an_identifier_asked_by_name_with_an_aggregation_that_fits_stays() {
        for (question, aggregate) in [
            ("maximum train id by name", Aggregate::Max),
            ("min train id by name", Aggregate::Min),
            ("number of distinct train ids by name", Aggregate::Distinct),
        ] {
            let (plan, table) = read(question);
            assert_eq!(plan.aggregate, Some(aggregate), "{question}");
            assert_eq!(names(&plan.measures, &table), ["train_id"], "{question}");
        }
    }

    fn filters_of(question: &str) -> Vec<String> {
        let (plan, table) = read(question);
        plan.filters
            .iter()
            .map(|f| super::super::plan::filter_text(&|c| table.columns[c].name.clone(), f))
            .collect()
    }

    #[test]
    fn an_order_is_of_the_measure_or_of_the_x_axis() {
        let order = |q: &str| read(q).0.rank.map(|r| (r.descending, r.by_axis, r.limit));
        assert_eq!(
            order("passengers by name, sort from high to low"),
            Some((true, false, None))
        );
        assert_eq!(
            order("passengers by name in ascending order of the total"),
            Some((false, false, None))
        );
        assert_eq!(
            order("passengers by name, order by the x-axis"),
            Some((false, true, None))
        );
        assert_eq!(
            order("passengers by name from Z to A"),
            Some((true, true, None))
        );
        assert_eq!(
            order("rank names by the number of trains"),
            Some((true, false, None))
        );
        // Several things without a number: the default, said.
        let (plan, _) = read("counties with the lowest passengers");
        assert_eq!(
            plan.rank.map(|r| (r.limit, r.assumed_limit)),
            Some((Some(DEFAULT_LIMIT), true))
        );
        // "At least" compares, never ranks.
        assert_eq!(order("names with at least 120 passengers"), None);
    }

    #[test]
    fn comparisons_as_written_and_as_sql_writes_them() {
        assert_eq!(filters_of("passengers where units >= 4"), ["units >= 4"]);
        assert_eq!(
            filters_of("passengers where units is greater than or equal to 4"),
            ["units >= 4"]
        );
        assert_eq!(
            filters_of("passengers where name is not equal to Local"),
            ["name != Local"]
        );
        assert_eq!(
            filters_of("passengers where name != Local"),
            ["name != Local"]
        );
        assert_eq!(
            filters_of("passengers where name = Night or county = Kern"),
            ["name = Night or county = Kern"]
        );
        // Either of two values of one column, not a comparison of them.
        let (plan, _) = read("passengers by county for Night or Local");
        assert_eq!(plan.split, None);
        assert_eq!(
            filters_of("passengers by county for Night or Local"),
            ["name in Night, Local"]
        );
    }

    #[test]
    fn a_table_of_counts_is_summed_unless_rows_are_asked_for() {
        let csv = "year,job,count\n1900,Nurse,10\n1900,Baker,4\n1910,Nurse,12\n1910,Baker,5\n";
        let table = read_csv(csv.as_bytes(), &Stop::never()).unwrap();
        let plan = understand(
            "number of nurses over the years",
            &table,
            &Aliases::default(),
        );
        assert_eq!(
            (names(&plan.measures, &table), plan.aggregate),
            (vec!["count".to_owned()], Some(Aggregate::Sum))
        );
        let plan = understand("number of rows per job", &table, &Aliases::default());
        assert_eq!(
            (plan.measures.len(), plan.aggregate),
            (0, Some(Aggregate::Count))
        );
    }

    #[test]
    fn rows_asked_for_are_listed() {
        for question in [
            "trains with more than 120 passengers",
            "list names in descending order of passengers",
            "show names and passengers where county = Kern",
        ] {
            assert!(read(question).0.listing, "{question}");
        }
        for question in ["average passengers by name", "top 3 names by passengers"] {
            assert!(!read(question).0.listing, "{question}");
        }
    }

    #[test]
    fn a_colour_group_and_the_side_of_against() {
        let (plan, table) = read("passengers against units, colored by name");
        assert_eq!(names(&plan.measures, &table), ["units", "passengers"]);
        assert_eq!(
            plan.colour.map(|c| table.columns[c].name.as_str()),
            Some("name")
        );
        let (plan, table) = read("passengers vs units, one line per county");
        assert_eq!(names(&plan.measures, &table), ["passengers", "units"]);
        assert_eq!(
            plan.colour.map(|c| table.columns[c].name.as_str()),
            Some("county")
        );
    }

    fn read_of(csv: &str, question: &str) -> (Plan, Table) {
        let table = read_csv(csv.as_bytes(), &Stop::never()).unwrap();
        (understand(question, &table, &Aliases::default()), table)
    }

    fn filter_texts(plan: &Plan, table: &Table) -> Vec<String> {
        let name = |c: usize| table.columns[c].name.clone();
        plan.filters
            .iter()
            .map(|f| super::super::plan::filter_text(&name, f))
            .collect()
    }

    #[test]
    fn months_of_dates_are_filters_of_months() {
        let mut csv = String::from("time,count\n");
        for d in 0..200 {
            let (y, m, day) = zdr_chart::model::civil_from_days(16_436 + d);
            csv.push_str(&format!("{y:04}-{m:02}-{day:02},{}\n", d % 7));
        }
        for (question, want) in [
            ("count in March 2015", "time = 2015-03"),
            ("count since April", "time >= 2015-04"),
            ("count before June", "time <= 2015-05"),
            (
                "count from March to May",
                "time between 2015-03 and 2015-05",
            ),
        ] {
            let (plan, table) = read_of(&csv, question);
            assert_eq!(filter_texts(&plan, &table), [want], "{question}");
        }
        let (plan, table) = read_of(&csv, "count in 2015");
        assert_eq!(filter_texts(&plan, &table), ["time = 2015"]);
    }

    #[test]
    fn a_column_of_zero_and_one_is_a_yes_or_no() {
        let mut csv = String::from("PassengerId,Survived,Pclass,Sex,Fare,Embarked\n");
        for i in 1..=40 {
            let sex = ["male", "female"][i % 2];
            csv.push_str(&format!(
                "{i},{},{},{sex},{}.5,{}\n",
                i % 3 % 2,
                i % 3 + 1,
                i * 3,
                ["S", "C", "Q"][i % 3]
            ));
        }
        let (plan, table) = read_of(&csv, "how many passengers survived");
        assert_eq!(filter_texts(&plan, &table), ["Survived = 1"]);
        assert_eq!(plan.aggregate, Some(Aggregate::Count));
        let (plan, table) = read_of(&csv, "number of survivors by sex");
        assert_eq!(filter_texts(&plan, &table), ["Survived = 1"]);
        assert_eq!(names(&plan.dimensions, &table), ["Sex"]);
        let (plan, table) = read_of(&csv, "survival rate by class");
        assert_eq!(
            (names(&plan.measures, &table), plan.aggregate),
            (vec!["Survived".to_owned()], Some(Aggregate::Mean))
        );
        assert_eq!(names(&plan.dimensions, &table), ["Pclass"]);
        let (plan, table) = read_of(&csv, "average fare by port of embarkation");
        assert_eq!(names(&plan.dimensions, &table), ["Embarked"]);
        let (plan, table) = read_of(&csv, "count of passengers by sex and class");
        assert_eq!(names(&plan.dimensions, &table), ["Sex", "Pclass"]);
    }

    #[test]
    fn names_shortened_beyond_their_letters_are_read() {
        let csv = "id,year,lg,g,ab,r,h,hr,enrltot,Bwt,Hwt\n".to_owned()
            + &(1..=30)
                .map(|i| {
                    format!(
                        "{i},{},AL,{v},{v},{v},{v},{v},{v},2.{i},1{i}\n",
                        1990 + i % 5,
                        v = i * 7 % 11
                    )
                })
                .collect::<String>();
        for (question, measure) in [
            ("total runs by league", "r"),
            ("average at bats by league", "ab"),
            ("hits by league", "h"),
            ("total enrollment by league", "enrltot"),
            ("average weight by league", "Bwt"),
            ("average heart weight by league", "Hwt"),
        ] {
            let (plan, table) = read_of(&csv, question);
            assert_eq!(names(&plan.measures, &table), [measure], "{question}");
        }
        // A chart's words name no column.
        let (plan, table) = read_of(&csv, "stacked bar of home runs by year, colored by league");
        assert_eq!(names(&plan.measures, &table), ["hr"]);
    }

    #[test]
    fn a_measure_that_drifts_is_averaged_and_one_that_swings_summed() {
        let mut csv = String::from("date,co2,sales\n");
        for d in 0..48 {
            csv.push_str(&format!(
                "{}-{:02}-01,{},{}\n",
                2000 + d / 12,
                d % 12 + 1,
                350 + d,
                [10, 90, 40, 5][d % 4]
            ));
        }
        let table = read_csv(csv.as_bytes(), &Stop::never()).unwrap();
        assert_eq!(
            super::super::measure::default_aggregate(&table, Some(1)),
            Aggregate::Mean
        );
        assert_eq!(
            super::super::measure::default_aggregate(&table, Some(2)),
            Aggregate::Sum
        );
    }

    #[test]
    fn distinct_values_are_counted_where_asked_or_where_places_repeat() {
        let mut csv = String::from("name,region,group,pct\n");
        for (state, region) in [
            ("Alabama", "south"),
            ("Texas", "south"),
            ("Ohio", "midwest"),
        ] {
            for group in ["low", "high"] {
                csv.push_str(&format!("{state},{region},{group},0.5\n"));
            }
        }
        let (plan, table) = read_of(&csv, "how many states in each region");
        assert_eq!(plan.aggregate, Some(Aggregate::Distinct));
        assert_eq!(names(&plan.measures, &table), ["name"]);
        assert_eq!(names(&plan.dimensions, &table), ["region"]);
        let (plan, table) = read_of(&csv, "number of distinct groups");
        assert_eq!(
            (plan.aggregate, names(&plan.measures, &table)),
            (Some(Aggregate::Distinct), vec!["group".to_owned()])
        );
        let (plan, table) = read_of(&csv, "pct by state");
        assert_eq!(names(&plan.dimensions, &table), ["name"]);
    }

    #[test]
    fn counts_bounds_ordinals_and_one_extreme_are_read() {
        let mut csv = String::from("price,bedrooms,driveway,class,age,highjump\n");
        for i in 0..40 {
            csv.push_str(&format!(
                "{},{},{},{},{},1.{}\n",
                40_000 + i * 997 % 50_000,
                i % 5 + 1,
                ["yes", "no"][i % 2],
                ["1st", "2nd", "3rd"][i % 3],
                i * 7 % 90,
                50 + i
            ));
        }
        let (plan, table) = read_of(&csv, "count of houses with 4 or more bedrooms by class");
        assert_eq!(filter_texts(&plan, &table), ["bedrooms >= 4"]);
        let (plan, table) = read_of(&csv, "average price of people aged 65 or over");
        assert_eq!(filter_texts(&plan, &table), ["age >= 65"]);
        let (plan, table) = read_of(&csv, "median price for houses with a driveway by class");
        assert_eq!(filter_texts(&plan, &table), ["driveway = yes"]);
        let (plan, table) = read_of(&csv, "average price for houses without a driveway");
        assert_eq!(filter_texts(&plan, &table), ["driveway = no"]);
        let (plan, table) = read_of(&csv, "average price in first or second class");
        assert_eq!(filter_texts(&plan, &table), ["class in 1st, 2nd"]);
        let (plan, _) = read_of(&csv, "best high jump");
        assert_eq!((plan.aggregate, plan.rank), (Some(Aggregate::Max), None));
        let (plan, _) = read_of(&csv, "the class with the most bedrooms");
        assert_eq!(plan.rank.and_then(|r| r.limit), Some(1));
    }
}
