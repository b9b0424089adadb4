//! The plan a question becomes: which columns, which rows, how they are
//! summarised and ordered, and the card that shows it. Its text form
//! ([`Plan::describe`]) is what `debug` answers and the corpus compares.

use serde::Serialize;
use zdr_chart::model::CardKind;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Aggregate {
    Sum,
    Mean,
    Median,
    Count,
    Min,
    Max,
    /// The distinct values of the measure column, counted ("how many
    /// states in each region" of a table of several rows per state).
    Distinct,
}

impl Aggregate {
    pub fn as_str(self) -> &'static str {
        match self {
            Aggregate::Sum => "sum",
            Aggregate::Mean => "mean",
            Aggregate::Median => "median",
            Aggregate::Count => "count",
            Aggregate::Min => "min",
            Aggregate::Max => "max",
            Aggregate::Distinct => "distinct",
        }
    }

    /// As a title says it: "Average", "Total".
    pub fn word(self) -> &'static str {
        match self {
            Aggregate::Sum => "Total",
            Aggregate::Mean => "Average",
            Aggregate::Median => "Median",
            Aggregate::Count => "Number of",
            Aggregate::Min => "Lowest",
            Aggregate::Max => "Highest",
            Aggregate::Distinct => "Number of distinct",
        }
    }
}

/// A time grain: what one point of a line stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Grain {
    Day,
    Week,
    Month,
    Quarter,
    Year,
    /// Monday to Sunday, whatever the week: a cycle, drawn as bars.
    Weekday,
}

impl Grain {
    pub fn as_str(self) -> &'static str {
        match self {
            Grain::Day => "day",
            Grain::Week => "week",
            Grain::Month => "month",
            Grain::Quarter => "quarter",
            Grain::Year => "year",
            Grain::Weekday => "weekday",
        }
    }
}

/// How a filter keeps rows. Comparisons of a date column compare years.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "op", content = "value")]
pub enum Test {
    /// One of these values (texts as the table writes them).
    In(Vec<String>),
    /// None of these values ("not equal to Fair", "not from ORD").
    Out(Vec<String>),
    Gt(f64),
    Ge(f64),
    Lt(f64),
    Le(f64),
    /// Both ends kept.
    Between(f64, f64),
    /// Dates from one month to another, both kept, each as year × 12 +
    /// month − 1 ("March 2015", "since April"); an open end is `i64::MIN`
    /// or `i64::MAX`.
    Months(i64, i64),
}

/// A month as year × 12 + month − 1, written `2015-03`.
pub fn month_text(m: i64) -> String {
    format!("{:04}-{:02}", m.div_euclid(12), m.rem_euclid(12) + 1)
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Filter {
    pub column: usize,
    pub test: Test,
    /// Tests of other columns a row may pass instead ("lg = AL or team =
    /// SFN"); empty for most filters.
    pub or: Vec<(usize, Test)>,
}

impl Filter {
    pub fn new(column: usize, test: Test) -> Filter {
        Filter {
            column,
            test,
            or: Vec::new(),
        }
    }
}

/// What the question asks of the data, beside showing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Task {
    Trend,
    Rank,
    Compare,
    Distribution,
    Correlation,
    Share,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Rank {
    pub limit: Option<usize>,
    pub descending: bool,
    /// Ordered by the x axis ("from A to Z", "by the x-axis", "sorted by
    /// month"), not by the measure.
    pub by_axis: bool,
    /// The limit is [`DEFAULT_LIMIT`], the question asking for "the
    /// lowest" of several things without a number.
    pub assumed_limit: bool,
}

/// Things ranked at most when a question asks for "the highest" of several
/// without a number ("districts with the lowest test scores").
pub const DEFAULT_LIMIT: usize = 10;

/// A question read against one table: column indices into it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Plan {
    /// Measures (numeric columns) shown, in the question's order.
    pub measures: Vec<usize>,
    /// Categories the values are grouped by, in the question's order.
    pub dimensions: Vec<usize>,
    /// The date column of a trend.
    pub time: Option<usize>,
    pub grain: Option<Grain>,
    pub filters: Vec<Filter>,
    /// The aggregation the question asked for, if any.
    pub aggregate: Option<Aggregate>,
    pub rank: Option<Rank>,
    pub tasks: Vec<Task>,
    /// The card type a chart word asked for, and the word.
    pub chart: Option<(CardKind, &'static str)>,
    /// The card a word leans to without asking for it ("schedule",
    /// "bubbles"): the recommender's first.
    pub leaning: Option<CardKind>,
    /// A column whose named values are compared, one series (or bar) each.
    pub split: Option<usize>,
    /// The category the question colours by ("colored by league", "one
    /// line per team", "a different color for each sex").
    pub colour: Option<usize>,
    /// Words of the question nothing matched (shown in `answer`).
    pub ignored: Vec<String>,
    /// The question asks for rows ("cars with more than 200 hp"): a table.
    pub listing: bool,
    /// The one measure was taken for want of one named (a table of one
    /// measure, a comparison's column), not named by the question.
    pub inferred_measure: bool,
    /// Words after "by" no column has, taken for the table's one category.
    pub guessed: Option<(String, usize)>,
    /// The date column is a second group ("by site and year"), not an axis.
    pub time_group: bool,
    /// The question asks for a running total ("cumulative sales").
    pub cumulative: bool,
    /// The question asks for the value now ("latest revenue").
    pub latest: bool,
    /// The question asks for one number: the value now, or a headline
    /// ("kpi").
    pub headline: bool,
    /// The question asks for one number and groups nothing ("how many",
    /// "total", or a headline).
    pub one_number: bool,
    /// The question sets two things against each other ("X vs Y").
    pub versus: bool,
    /// The question groups by something, named or not ("by", "per").
    pub grouped: bool,
    /// Every column the question names, in its order, those it groups by
    /// first: the recommender takes them first for each role.
    pub named: Vec<usize>,
    /// The columns the question groups by ("by region", "per state").
    pub grouped_by: Vec<usize>,
}

impl Plan {
    pub fn has(&self, task: Task) -> bool {
        self.tasks.contains(&task)
    }

    pub fn add(&mut self, task: Task) {
        if !self.has(task) {
            self.tasks.push(task);
        }
    }

    /// Every column the plan reads: measures, dimensions, the trend's
    /// date column and the filters' columns, each once.
    pub fn attributes(&self) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        let all = self
            .measures
            .iter()
            .chain(&self.dimensions)
            .chain(&self.time)
            .chain(self.filters.iter().map(|f| &f.column));
        for &c in all {
            if !out.contains(&c) {
                out.push(c);
            }
        }
        out
    }

    /// Whether nothing of the question was understood.
    pub fn is_empty(&self) -> bool {
        self.measures.is_empty()
            && self.dimensions.is_empty()
            && self.time.is_none()
            && self.filters.is_empty()
            && self.chart.is_none()
            && self.tasks.is_empty()
            // "The total number of students": the rows counted, one number.
            && !(self.aggregate == Some(Aggregate::Count) && self.one_number)
    }
}

/// A filter as text: `Origin = USA`, `Horsepower > 100`, `year between
/// 1990 and 2000`, `country in Japan, Germany`, `cut != Fair`, `a > 1 or
/// b = x`; `name` names a column by its index.
pub fn filter_text(name: &dyn Fn(usize) -> String, filter: &Filter) -> String {
    let mut parts = vec![test_text(&name(filter.column), &filter.test)];
    for (column, test) in &filter.or {
        parts.push(test_text(&name(*column), test));
    }
    parts.join(" or ")
}

/// One test of a filter as text.
pub fn test_text(name: &str, test: &Test) -> String {
    let n = format_number;
    match test {
        Test::In(values) if values.len() == 1 => format!("{name} = {}", values.join("")),
        Test::In(values) => format!("{name} in {}", values.join(", ")),
        Test::Out(values) if values.len() == 1 => format!("{name} != {}", values.join("")),
        Test::Out(values) => format!("{name} not in {}", values.join(", ")),
        Test::Gt(v) => format!("{name} > {}", n(*v)),
        Test::Ge(v) => format!("{name} >= {}", n(*v)),
        Test::Lt(v) => format!("{name} < {}", n(*v)),
        Test::Le(v) => format!("{name} <= {}", n(*v)),
        Test::Between(a, b) if a == b => format!("{name} = {}", n(*a)),
        Test::Between(a, b) => format!("{name} between {} and {}", n(*a), n(*b)),
        Test::Months(a, b) if a == b => format!("{name} = {}", month_text(*a)),
        Test::Months(a, i64::MAX) => format!("{name} >= {}", month_text(*a)),
        Test::Months(i64::MIN, b) => format!("{name} <= {}", month_text(*b)),
        Test::Months(a, b) => format!("{name} between {} and {}", month_text(*a), month_text(*b)),
    }
}

/// A number as a filter or a label writes it: `4`, `1.5`.
pub fn format_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}
