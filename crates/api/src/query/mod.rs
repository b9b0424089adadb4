//! Query understanding: a question and a table's schema and values become
//! a typed [`Plan`] ([`parse`]), and the plan becomes the card that shows
//! what was asked, no more ([`build`]). Deterministic, documented rules
//! (docs/service-api.md, "How a question is read"); no language model.
//! `visualize` with a `query` and `knowledge_search` both read questions
//! here; a question that names nothing of the table is left to the
//! recommender ([`crate::recommend`]).

mod aliases;
mod build;
mod lexicon;
mod measure;
mod parse;
mod plan;
mod words;

pub use aliases::Aliases;
pub use build::{draw, Drawing, Drawn};
pub use parse::understand;
pub use plan::{Plan, Task};

use crate::model::card::PlanView;
use crate::table::Table;

/// The plan as `debug` shows it and the corpus compares it: column names,
/// filters as text.
pub fn view(plan: &Plan, table: &Table, drawn: Option<&Drawn>) -> PlanView {
    let name = |c: &usize| {
        table
            .columns
            .get(*c)
            .map(|c| c.name.clone())
            .unwrap_or_default()
    };
    PlanView {
        attributes: {
            let mut all = plan.attributes();
            for c in drawn.map(|d| d.assumed.as_slice()).unwrap_or_default() {
                if !all.contains(c) {
                    all.push(*c);
                }
            }
            all.iter().map(name).collect()
        },
        measures: plan.measures.iter().map(name).collect(),
        dimensions: plan.dimensions.iter().map(name).collect(),
        time: plan.time.as_ref().map(name),
        grain: plan.grain.map(|g| g.as_str()),
        filters: plan
            .filters
            .iter()
            .map(|f| plan::filter_text(&name(&f.column), &f.test))
            .collect(),
        aggregate: plan.aggregate.map(|a| a.as_str()),
        sort: plan.rank.map(|r| if r.descending { "desc" } else { "asc" }),
        limit: plan.rank.and_then(|r| r.limit),
        tasks: plan.tasks.iter().map(|t| task_name(*t)).collect(),
        chart_word: plan.chart.map(|(_, w)| w),
        card_type: drawn.map(|d| d.kind.as_str()),
        ignored: plan.ignored.clone(),
    }
}

fn task_name(task: Task) -> &'static str {
    match task {
        Task::Trend => "trend",
        Task::Rank => "rank",
        Task::Compare => "compare",
        Task::Distribution => "distribution",
        Task::Correlation => "correlation",
        Task::Share => "share",
    }
}

/// What a question over one table came to.
pub struct Answered {
    /// The card of the plan (none when its filters keep no row).
    pub cards: Vec<crate::recommend::Suggestion>,
    pub plan: PlanView,
    /// One sentence: what was understood, assumed and ignored.
    pub answer: String,
}

/// The card `question` asks of `table`, `forced` to a card type when the
/// request names one; `None` when the question names nothing of the
/// table (the recommender answers then).
pub fn answer(
    question: &str,
    table: &Table,
    aliases: &Aliases,
    forced: Option<zdr_chart::model::CardKind>,
    drawing: &Drawing,
) -> Option<Answered> {
    let mut plan = understand(question, table, aliases);
    if let Some(kind) = forced {
        plan.chart = Some((kind, kind.as_str()));
    }
    if plan.is_empty() {
        return None;
    }
    Some(match draw(&plan, table, drawing) {
        Ok(drawn) => Answered {
            plan: view(&plan, table, Some(&drawn)),
            answer: drawn.answer,
            cards: vec![drawn.card],
        },
        Err(reason) => Answered {
            plan: view(&plan, table, None),
            answer: format!("Nothing to draw for \"{}\": {reason}.", question.trim()),
            cards: Vec::new(),
        },
    })
}
