//! What the recommender reads of a plan ([`Intent`]): the card type the
//! question moves first, the bars a ranking keeps, the columns named, a
//! running total, the value now. The recommender reads no word of the
//! question itself, so a word of the lexicon means the same to both.

use zdr_chart::model::CardKind;

use super::plan::{Plan, Task};
use crate::recommend::{Intent, MAX_BARS};
use crate::table::{Kind, Table};

/// What the recommender reads of `plan` (over `table`).
pub fn intent(plan: &Plan, table: &Table) -> Intent {
    Intent {
        first: leaning(plan, table),
        // "top 5" keeps the largest; "bottom 3" is no cut of them.
        top: plan
            .rank
            .filter(|r| r.descending)
            .and_then(|r| r.limit)
            .filter(|n| (1..=MAX_BARS * 20).contains(n)),
        named: plan.named.clone(),
        cumulative: plan.cumulative,
        latest: plan.latest,
    }
}

/// The card type the plan's tasks and chart word move first, in this
/// order (docs/service-api.md, the recommender's table of words).
fn leaning(plan: &Plan, table: &Table) -> Option<CardKind> {
    let asked = plan.chart.map(|(kind, _)| kind);
    let is = |kind: CardKind| asked == Some(kind) || plan.leaning == Some(kind);
    let by_place = plan
        .grouped_by
        .first()
        .and_then(|c| table.columns.get(*c))
        .is_some_and(|c| c.kind == Kind::Place);
    Some(if is(CardKind::StackedAreaTimeseries) {
        CardKind::StackedAreaTimeseries
    } else if is(CardKind::Treemap) {
        CardKind::Treemap
    } else if is(CardKind::BubbleMap) {
        CardKind::BubbleMap
    } else if plan.cumulative || is(CardKind::AreaTimeseries) {
        CardKind::AreaTimeseries
    } else if plan.has(Task::Trend) || is(CardKind::Timeseries) {
        CardKind::Timeseries
    } else if is(CardKind::Timeline) {
        CardKind::Timeline
    } else if plan.has(Task::Share) || is(CardKind::Pie) {
        CardKind::Pie
    } else if plan.has(Task::Distribution) || is(CardKind::Histogram) || is(CardKind::Boxplot) {
        // "distribution of price by brand": one box per brand.
        if is(CardKind::Boxplot) || (plan.grouped && !is(CardKind::Histogram)) {
            CardKind::Boxplot
        } else {
            CardKind::Histogram
        }
    } else if plan.has(Task::Correlation) || plan.versus || is(CardKind::Scatter) {
        CardKind::Scatter
    } else if is(CardKind::Choropleth) || by_place {
        CardKind::Choropleth
    } else if plan.one_number {
        CardKind::TopLevelMetric
    } else {
        return asked;
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use zdr_embed_page::limits::Stop;

    use super::*;
    use crate::query::{understand, Aliases};
    use crate::table::read_csv;

    const DAILY: &str = "day,installs,uninstalls\n2024-01-01,5,1\n2024-01-02,7,2\n2024-01-03,4,0\n";

    fn table(csv: &str) -> Table {
        read_csv(csv.as_bytes(), &Stop::never()).unwrap()
    }

    /// Every chart word of the lexicon, read by the planner, moves its own
    /// card first in the recommender: one reading of each word.
    #[test]
    fn every_chart_word_leans_the_recommender_to_its_card() {
        let table = table(DAILY);
        for &(phrase, kind) in super::super::lexicon::CHARTS {
            let plan = understand(&format!("as a {phrase}"), &table, &Aliases::default());
            assert_eq!(plan.chart, Some((kind, phrase)), "{phrase}");
            assert_eq!(intent(&plan, &table).first, Some(kind), "{phrase}");
        }
    }

    /// The words the planner and the recommender once read apart, read
    /// once: whole words, never inside another or inside a name.
    #[test]
    fn words_once_read_apart_are_read_once() {
        let daily = table(DAILY);
        let plan = |q: &str, t: &Table| understand(q, t, &Aliases::default());
        let first = |q: &str, t: &Table| intent(&plan(q, t), t).first;
        assert!(plan("installs cumulatively", &daily).cumulative);
        assert_eq!(
            first("cumulatively", &daily),
            Some(CardKind::AreaTimeseries)
        );
        assert_eq!(first("the schedule", &daily), Some(CardKind::Timeline));
        assert_eq!(first("as bubbles", &daily), Some(CardKind::BubbleMap));
        assert_eq!(first("percentage of installs", &daily), Some(CardKind::Pie));
        assert_eq!(first("shareholders", &daily), None);
        assert_eq!(first("how much", &daily), Some(CardKind::TopLevelMetric));
        assert_eq!(first("total by region", &daily), None);
        // "age" is no column of "average".
        let staff = table("name,salary,age\na,10,30\nb,20,40\n");
        let named = intent(&plan("average", &staff), &staff).named;
        assert!(named.is_empty(), "{named:?}");
        // A name that holds a chart word asks for no chart.
        let teas = table("product,sales\nBubble Tea,5\nApple Pie,3\n");
        assert_eq!(plan("Bubble Tea sales", &teas).leaning, None);
        assert_eq!(plan("Apple Pie sales", &teas).chart, None);
        // A word that leans asks for no card of the plan.
        assert_eq!(plan("sales as bubbles", &teas).chart, None);
        // "top five" keeps five bars; "bottom 3" keeps no top.
        assert_eq!(intent(&plan("top five", &teas), &teas).top, Some(5));
        assert_eq!(intent(&plan("bottom 3", &teas), &teas).top, None);
    }
}
