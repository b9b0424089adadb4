//! Query understanding: a question and a table's schema and values become
//! a typed [`Plan`] ([`parse`]), and the plan becomes the card that shows
//! what was asked, no more ([`build`]). Deterministic, documented rules
//! (docs/service-api.md, "How a question is read"); no language model.
//! `visualize` with a `query` and `knowledge_search` both read questions
//! here; a question that names nothing of the table is left to the
//! recommender ([`crate::recommend`]).

mod aliases;
mod build;
mod choose;
mod cues;
pub(crate) mod lexicon;
mod measure;
mod parse;
mod phrases;
pub(crate) mod plan;
mod rows;
mod rules;
mod words;

pub use aliases::Aliases;
pub use build::{draw, Drawing, Drawn};
pub use cues::intent;
pub use lexicon::is_rule_word;
pub use plan::{Plan, Task};
pub(crate) use rows::kept;
pub use rules::understand;

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
            .map(|f| plan::filter_text(&|c| name(&c), f))
            .collect(),
        aggregate: plan.aggregate.map(|a| a.as_str()),
        sort: plan.rank.map(|r| if r.descending { "desc" } else { "asc" }),
        sort_by: plan.rank.filter(|r| r.by_axis).map(|_| "x"),
        limit: plan.rank.and_then(|r| r.limit),
        tasks: plan.tasks.iter().map(|t| task_name(*t)).collect(),
        chart_word: plan.chart.map(|(_, w)| w),
        card_type: drawn.map(|d| d.kind.as_str()),
        ignored: plan.ignored.clone(),
        x: drawn.and_then(|d| d.axes.x.as_ref()).map(name),
        x_grain: drawn.and_then(|d| d.axes.grain).map(|g| g.as_str()),
        y: drawn.map(|d| d.axes.y.iter().map(name).collect()),
        group: drawn.and_then(|d| d.axes.group.as_ref()).map(name),
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

/// The card `plan` (read of `question`) asks of `table`, `forced` to a
/// card type when the request names one; `None` when the question names
/// nothing of the table (the recommender answers then).
pub fn answer(
    plan: &Plan,
    question: &str,
    table: &Table,
    forced: Option<zdr_chart::model::CardKind>,
    drawing: &Drawing,
) -> Option<Answered> {
    let mut plan = plan.clone();
    if let Some(kind) = forced {
        plan.chart = Some((kind, kind.as_str()));
    }
    if plan.is_empty() {
        return None;
    }
    if let Some(answered) = timeline(&plan, table, drawing) {
        return Some(answered);
    }
    Some(match draw(&plan, table, drawing) {
        // viz_component_type is a demand, not a wish: another type is no
        // answer (the recommender then says what the type needs).
        Ok(drawn) if forced.is_some_and(|k| k != drawn.kind) => Answered {
            plan: view(&plan, table, Some(&drawn)),
            answer: format!(
                "Nothing to draw for \"{}\" as {}.",
                question.trim(),
                forced.map_or("", |k| k.as_str())
            ),
            cards: Vec::new(),
        },
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

/// The timeline a plan asks for ("gantt", "schedule"): the planner builds
/// none, so it is the recommender's, of the rows the plan keeps; `None`
/// when the plan asks for none or the rows cannot make one (the planner
/// then says what a timeline needs and draws what it can).
fn timeline(plan: &Plan, table: &Table, drawing: &Drawing) -> Option<Answered> {
    let kind = zdr_chart::model::CardKind::Timeline;
    if plan.chart.map(|(k, _)| k) != Some(kind) {
        return None;
    }
    let kept = rows::kept(table, &rows::mask(plan, table));
    // A column kept to one value ("team A") labels no bar.
    let mut plan = plan.clone();
    let one_value = |c: &usize| {
        plan.filters
            .iter()
            .any(|f| f.column == *c && matches!(&f.test, plan::Test::In(v) if v.len() == 1))
    };
    let named: Vec<usize> = plan
        .named
        .iter()
        .copied()
        .filter(|c| !one_value(c))
        .collect();
    plan.named = named;
    let cards =
        crate::recommend::suggest(&kept, "", &intent(&plan, &kept), Some(kind), drawing.dark)
            .ok()?;
    let title = cards
        .first()
        .map(|c| crate::recommend::lower_first(c.title()))?;
    let mut plan_view = view(&plan, table, None);
    plan_view.card_type = Some(kind.as_str());
    Some(Answered {
        plan: plan_view,
        answer: format!("Shown: {title}, as a timeline."),
        cards,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use proptest::prelude::*;
    use zdr_embed_page::limits::Stop;

    use super::*;
    use crate::table::{read_csv, Column};

    const CARS: &str = include_str!("../../datasets/cars.csv");

    fn cars() -> Table {
        read_csv(CARS.as_bytes(), &Stop::never()).unwrap()
    }

    const QUESTIONS: [&str; 12] = [
        "average mpg by origin for cars with 4 cylinders",
        "visualize hp and displacement as a scatterplot",
        "show origin as a bar chart",
        "top 10 cars by horsepower",
        "distribution of weight by origin",
        "cars with more than 200 hp",
        "number of cars by year",
        "median displacement by cylinders",
        "weight of USA cars vs Japan cars",
        "accelaration vs horsepower",
        "mpg of cars built after 1978",
        "share of cars by origin",
    ];

    fn plan_of(question: &str, table: &Table) -> PlanView {
        let plan = understand(question, table, &Aliases::default());
        let drawn = draw(
            &plan,
            table,
            &Drawing {
                row: "rows",
                dark: false,
            },
        )
        .ok();
        view(&plan, table, drawn.as_ref())
    }

    /// The table with its columns in `order`.
    fn reordered(table: &Table, order: &[usize]) -> Table {
        Table {
            columns: order.iter().map(|i| table.columns[*i].clone()).collect(),
            rows: table.rows,
            read_as: None,
        }
    }

    fn renamed(table: &Table, at: usize, name: &str) -> Table {
        let mut out = table.clone();
        out.columns[at] = Column {
            name: name.to_owned(),
            ..out.columns[at].clone()
        };
        out
    }

    fn sorted(mut v: Vec<String>) -> Vec<String> {
        v.sort();
        v
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Columns in any order: the same plan.
        #[test]
        fn reordered_columns_give_the_same_plan(q in 0..QUESTIONS.len(), order in Just((0..9).collect::<Vec<usize>>()).prop_shuffle()) {
            let table = cars();
            let before = plan_of(QUESTIONS[q], &table);
            let after = plan_of(QUESTIONS[q], &reordered(&table, &order));
            prop_assert_eq!(sorted(before.attributes.clone()), sorted(after.attributes.clone()));
            prop_assert_eq!(before.filters, after.filters);
            prop_assert_eq!(before.card_type, after.card_type);
            prop_assert_eq!(before.aggregate, after.aggregate);
            prop_assert_eq!(before.sort, after.sort);
        }

        /// A column the question does not read, renamed: the same plan; a
        /// column it names by name, renamed in the table and the question
        /// alike: the same plan with the new name.
        #[test]
        fn renamed_columns_give_the_same_plan(q in 0..QUESTIONS.len(), name in "zq[a-z]{4,8}") {
            let table = cars();
            let question = QUESTIONS[q];
            let before = plan_of(question, &table);
            for at in 0..table.columns.len() {
                let old = table.columns[at].name.clone();
                let table = renamed(&table, at, &name);
                if !before.attributes.contains(&old) {
                    // The card may still draw the column (a table's names):
                    // under its new name.
                    let mut after = plan_of(question, &table);
                    let back = |n: &mut String| if *n == name { n.clone_from(&old) };
                    after.x.iter_mut().for_each(back);
                    after.group.iter_mut().for_each(back);
                    after.y.iter_mut().flatten().for_each(back);
                    prop_assert_eq!(&before, &after, "{} renamed", old);
                } else if question.contains(&old.to_lowercase()) {
                    let asked = question.replace(&old.to_lowercase(), &name);
                    let after = plan_of(&asked, &table);
                    let swap = |v: &Vec<String>| sorted(v.iter().map(|a| if *a == old { name.clone() } else { a.clone() }).collect());
                    prop_assert_eq!(swap(&before.attributes), sorted(after.attributes.clone()), "{}", asked);
                    prop_assert_eq!(before.card_type, after.card_type, "{}", asked);
                }
            }
        }

        /// Any text: a plan or a reason, never a panic, in time linear in
        /// the question (it is cut at 64 tokens).
        #[test]
        fn any_text_gives_a_plan_or_a_reason(question in "\\PC{0,300}") {
            let table = cars();
            let plan = understand(&question, &table, &Aliases::default());
            let drawn = draw(&plan, &table, &Drawing { row: "rows", dark: false });
            if let Ok(drawn) = drawn {
                let card = serde_json::to_string(&drawn.card.chart).unwrap();
                prop_assert!(zdr_chart::Chart::from_json(&card).is_ok(), "{card}");
            }
        }
    }

    /// The largest table a file may hold, every value distinct, and the
    /// longest question: read once through, not searched per word.
    #[test]
    fn the_largest_table_and_the_longest_question_are_read_in_one_pass() {
        use crate::table::MAX_ROWS;
        let mut csv = String::from("day,name,city,kind,sales,price\n");
        for i in 0..MAX_ROWS {
            let (y, m, d) = zdr_chart::model::civil_from_days(i as i64);
            csv.push_str(&format!(
                "{y:04}-{m:02}-{d:02},n{i},c{},k{},{i},{}\n",
                i % 5000,
                i % 7,
                i % 97
            ));
        }
        let table = read_csv(csv.as_bytes(), &Stop::never()).unwrap();
        let question = "top 5 cities by average sales where price is over 50 since 1990 compared with k3 and k4 as a bar chart ".repeat(20);
        let plan = plan_of(&question, &table);
        assert_eq!(plan.sort, Some("desc"));
        assert!(plan.filters.iter().any(|f| f == "price > 50"), "{plan:?}");
    }

    #[test]
    fn words_of_the_rules_near_numbers_read_as_asked() {
        let table = cars();
        let plan = plan_of("average mpg by origin for cars with 4 cylinders", &table);
        assert_eq!(plan.filters, ["Cylinders = 4"]);
        assert_eq!(plan.card_type, Some("bar"));
        assert_eq!(plan.aggregate, Some("mean"));
        let plan = plan_of("mpg of cars built between 1975 and 1980", &table);
        assert_eq!(plan.filters, ["Year between 1975 and 1980"]);
        let plan = plan_of("cars with horsepower between 100 and 150", &table);
        assert_eq!(plan.filters, ["Horsepower between 100 and 150"]);
        assert_eq!(plan.card_type, Some("table"));
        let plan = plan_of("top five cars by weight", &table);
        assert_eq!((plan.sort, plan.limit), (Some("desc"), Some(5)));
    }

    /// A timeline asked for is drawn where the data make one, of the rows
    /// the plan keeps; else the planner says what it needs.
    #[test]
    fn a_timeline_asked_for_is_drawn_where_the_data_make_one() {
        let csv = "task,team,start,end\nDesign,A,2024-01-01,2024-02-01\nBuild,B,2024-02-01,2024-05-01\nTest,A,2024-04-15,2024-06-01\n";
        let table = read_csv(csv.as_bytes(), &Stop::never()).unwrap();
        let drawing = Drawing {
            row: "rows",
            dark: false,
        };
        for question in ["gantt", "gantt of team A", "tasks as a timeline"] {
            let plan = understand(question, &table, &Aliases::default());
            let answered = answer(&plan, question, &table, None, &drawing).unwrap();
            assert_eq!(
                answered.cards[0].kind(),
                zdr_chart::model::CardKind::Timeline,
                "{question}"
            );
            assert_eq!(answered.plan.card_type, Some("timeline"));
        }
        let plan = understand("gantt of team A", &table, &Aliases::default());
        let answered = answer(&plan, "", &table, None, &drawing).unwrap();
        let written = serde_json::to_value(&answered.cards[0].chart).unwrap();
        let rows = written["data"].as_array().unwrap().len();
        assert_eq!(rows, 2);
        let cars = cars();
        let plan = understand("timeline of mpg", &cars, &Aliases::default());
        let answered = answer(&plan, "timeline of mpg", &cars, None, &drawing).unwrap();
        assert!(
            answered.answer.contains("a timeline needs"),
            "{}",
            answered.answer
        );
    }
}
