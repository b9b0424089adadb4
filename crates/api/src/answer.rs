//! A table asked a question, answered: plan → cards → answer, once for
//! every endpoint that answers questions (`visualize`, `knowledge_search`
//! and saved views). The question is read once, into a plan
//! ([`query::understand`]); the plan draws its card ([`query::answer`]),
//! and where it draws none, the recommender ([`recommend::suggest`]) does,
//! steered by the same plan: it reads no word of the question itself.

use zdr_chart::model::CardKind;

use crate::model::card::PlanView;
use crate::query::{self, Drawing, Plan};
use crate::recommend::{self, Suggestion};
use crate::table::Table;

/// What one table is asked.
#[derive(Clone, Copy)]
pub enum Asked<'a> {
    /// Nothing: the recommender's cards of the table.
    Nothing,
    /// A question, and the plan it was read into.
    Question { text: &'a str, plan: &'a Plan },
    /// A saved view: its columns read as a question, and its card type
    /// built by the recommender from those columns (a view is a recipe of
    /// columns and a type, not a question to plan).
    View(&'a Plan),
}

/// The cards of one table, and what was understood.
pub struct Answer {
    /// The cards, best first.
    pub cards: Vec<Suggestion>,
    /// The plan as `debug` shows it, when a question named something.
    pub plan: Option<PlanView>,
    /// One sentence: what the question was understood as, when it named
    /// something.
    pub said: Option<String>,
    /// The cards are the plan's, not the recommender's.
    pub planned: bool,
}

/// The cards `asked` of `table` (called `name`), only of the type `forced`
/// when the request names one; `Err` saying what that type needs when the
/// table cannot be drawn so.
pub fn answer(
    table: &Table,
    name: &str,
    asked: Asked,
    forced: Option<CardKind>,
    drawing: &Drawing,
) -> Result<Answer, String> {
    let (text, plan) = match asked {
        Asked::Nothing => return recommended(table, name, None, forced, drawing, None),
        Asked::View(plan) => return recommended(table, name, Some(plan), forced, drawing, None),
        Asked::Question { text, plan } => (text, plan),
    };
    match query::answer(plan, text, table, forced, drawing) {
        Some(answered) if !answered.cards.is_empty() => Ok(Answer {
            cards: answered.cards,
            plan: Some(answered.plan),
            said: Some(answered.answer),
            planned: true,
        }),
        // A plan that draws nothing still says why, beside the
        // recommender's cards.
        answered => recommended(table, name, Some(plan), forced, drawing, answered),
    }
}

fn recommended(
    table: &Table,
    name: &str,
    plan: Option<&Plan>,
    forced: Option<CardKind>,
    drawing: &Drawing,
    answered: Option<query::Answered>,
) -> Result<Answer, String> {
    let intent = plan.map(|p| query::intent(p, table)).unwrap_or_default();
    let cards = recommend::suggest(table, name, &intent, forced, drawing.dark)?;
    let (plan, said) = match answered {
        Some(answered) => (Some(answered.plan), Some(answered.answer)),
        None => (None, None),
    };
    Ok(Answer {
        cards,
        plan,
        said,
        planned: false,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use zdr_embed_page::limits::Stop;

    use super::*;
    use crate::query::Aliases;
    use crate::table::read_csv;

    const SALES: &str = "month,region,sales\n2024-01,North,120\n2024-02,South,98\n2024-03,North,130\n2024-03,South,90\n";

    fn sales() -> Table {
        read_csv(SALES.as_bytes(), &Stop::never()).unwrap()
    }

    fn ask(table: &Table, text: &str, forced: Option<CardKind>) -> Result<Answer, String> {
        let plan = query::understand(text, table, &Aliases::default());
        let drawing = Drawing {
            row: "rows",
            dark: false,
        };
        answer(
            table,
            "t",
            Asked::Question { text, plan: &plan },
            forced,
            &drawing,
        )
    }

    #[test]
    fn a_question_is_drawn_by_its_plan_else_by_the_recommender() {
        let table = sales();
        let planned = ask(&table, "sales by region", None).unwrap();
        assert!(planned.planned);
        assert_eq!(planned.cards.len(), 1);
        assert!(planned.said.is_some() && planned.plan.is_some());
        // Names nothing: the recommender's cards, and nothing understood.
        let recommended = ask(&table, "hello", None).unwrap();
        assert!(!recommended.planned && recommended.plan.is_none());
        assert!(recommended.cards.len() > 1);
        // Its filters keep no row: the plan says so, the recommender draws.
        let empty = ask(&table, "sales in 2030", None).unwrap();
        assert!(!empty.planned && !empty.cards.is_empty());
        assert!(empty.said.is_some_and(|s| s.contains("no row")));
    }

    #[test]
    fn a_type_the_data_cannot_make_is_refused_with_what_it_needs() {
        let table = sales();
        let refused = ask(&table, "sales", Some(CardKind::Timeline)).map(|a| a.cards.len());
        assert!(refused.unwrap_err().contains("two of dates"));
    }
}
