//! The words the rules know: chart words, aggregations, rankings, time
//! grains and tasks, the synonyms of common column names, and which
//! measures are rates (never summed) or levels (read at one date). All
//! of it is documented in docs/service-api.md, "How a question is read".

use zdr_chart::model::CardKind;

use super::plan::{Aggregate, Grain};

/// Chart words, longest first: the card type each asks for. A one-word
/// chart word that a name took ("map" of a column `map`, "pie" of a
/// product "Apple Pie") asks for nothing.
pub const CHARTS: &[(&str, CardKind)] = &[
    ("stacked area chart", CardKind::StackedAreaTimeseries),
    ("stacked bar chart", CardKind::StackedBar),
    ("grouped bar chart", CardKind::GroupedBar),
    ("box and whisker", CardKind::Boxplot),
    ("scatter plot", CardKind::Scatter),
    ("scatter chart", CardKind::Scatter),
    ("stacked area", CardKind::StackedAreaTimeseries),
    ("stacked bar", CardKind::StackedBar),
    ("grouped bar", CardKind::GroupedBar),
    ("bar chart", CardKind::Bar),
    ("bar graph", CardKind::Bar),
    ("column chart", CardKind::Bar),
    ("line chart", CardKind::Timeseries),
    ("line graph", CardKind::Timeseries),
    ("area chart", CardKind::AreaTimeseries),
    ("bubble map", CardKind::BubbleMap),
    ("bubble chart", CardKind::BubbleMap),
    ("tree map", CardKind::Treemap),
    ("headline number", CardKind::TopLevelMetric),
    ("pie chart", CardKind::Pie),
    ("donut chart", CardKind::Pie),
    ("box plot", CardKind::Boxplot),
    ("heat map", CardKind::Heatmap),
    ("scatterplot", CardKind::Scatter),
    ("scatter", CardKind::Scatter),
    ("histogram", CardKind::Histogram),
    ("treemap", CardKind::Treemap),
    ("boxplot", CardKind::Boxplot),
    ("heatmap", CardKind::Heatmap),
    ("choropleth", CardKind::Choropleth),
    ("waterfall", CardKind::Waterfall),
    ("gantt", CardKind::Timeline),
    ("timeline", CardKind::Timeline),
    ("map", CardKind::Choropleth),
    ("pie", CardKind::Pie),
    ("donut", CardKind::Pie),
    ("bars", CardKind::Bar),
    ("table", CardKind::Table),
];

/// Words that lean to a card without asking for it: the recommender puts
/// the card first, and a plan draws what it names as it would without
/// them (a plan of no column draws no timeline, bubbles or map of
/// nothing). A word a name took leans to nothing.
pub const LEANINGS: &[(&str, CardKind)] = &[
    ("schedule", CardKind::Timeline),
    ("phases", CardKind::Timeline),
    ("bubbles", CardKind::BubbleMap),
    ("bubble", CardKind::BubbleMap),
    ("geographic", CardKind::Choropleth),
    ("geographical", CardKind::Choropleth),
    ("geographically", CardKind::Choropleth),
    ("geography", CardKind::Choropleth),
];

/// Words that ask for a running total: an area of it over time.
pub const CUMULATIVES: &[&str] = &[
    "cumulative",
    "cumulated",
    "cumulatively",
    "running total",
    "to date",
];

/// Words that ask for the value now: the latest date's, or the last
/// row's.
pub const LATESTS: &[&str] = &["latest", "current", "currently", "now", "today"];

/// Words that ask for one number (beside [`LATESTS`]): a headline.
pub const HEADLINES: &[&str] = &["kpi", "headline"];

/// Words that ask for one number where nothing is grouped ([`BY_WORDS`]):
/// the recommender's headline ("how many", "total" are aggregations too).
pub const ONE_NUMBER: &[&str] = &["how many", "how much", "total"];

/// Aggregation words.
pub const AGGREGATES: &[(&str, Aggregate)] = &[
    ("how many", Aggregate::Count),
    ("how often", Aggregate::Count),
    ("number of", Aggregate::Count),
    ("count", Aggregate::Count),
    ("frequency", Aggregate::Count),
    // Before "total": "the total number of trains" counts them.
    ("total number", Aggregate::Count),
    ("total", Aggregate::Sum),
    ("sum", Aggregate::Sum),
    ("combined", Aggregate::Sum),
    ("average", Aggregate::Mean),
    ("mean", Aggregate::Mean),
    ("avg", Aggregate::Mean),
    ("typical", Aggregate::Mean),
    ("median", Aggregate::Median),
    ("maximum", Aggregate::Max),
    ("max", Aggregate::Max),
    ("minimum", Aggregate::Min),
    ("min", Aggregate::Min),
];

/// The last word of an identifier's name (`id`, `user_id`, `zip code`,
/// `order no`): the column names rows, it is counted, never summed.
pub const IDENTIFIERS: &[&str] = &["id", "code", "no", "nr"];

/// Words of a measure's name that say it holds counts of things (a flow
/// of [`FLOWS`]): "number of goals" names such a column, not the rows.
pub const COUNTS: &[&str] = &[
    "count", "unit", "quantity", "goal", "vote", "visit", "click", "order",
];

/// Words before a counted noun that count its distinct values ("number of
/// distinct ids"), where a column named is kept as what is counted.
pub const DISTINCTS: &[&str] = &["distinct", "unique", "different"];

/// Ranking words: descending or not.
pub const RANKS: &[(&str, bool)] = &[
    ("top", true),
    ("highest", true),
    ("most", true),
    ("largest", true),
    ("biggest", true),
    ("best", true),
    ("greatest", true),
    ("leading", true),
    ("ranked", true),
    ("ranking", true),
    ("rank", true),
    ("bottom", false),
    ("lowest", false),
    ("least", false),
    ("smallest", false),
    ("worst", false),
    ("fewest", false),
    ("cheapest", false),
    ("heaviest", true),
    ("oldest", true),
    ("tallest", true),
    ("longest", true),
    ("fastest", true),
    ("farthest", true),
    ("deepest", true),
    ("shallowest", false),
    ("furthest", true),
    ("richest", true),
    ("lightest", false),
    ("youngest", false),
    ("shortest", false),
    ("slowest", false),
    ("poorest", false),
    ("wettest", true),
    ("rainiest", true),
    ("hottest", true),
    ("warmest", true),
    ("windiest", true),
    ("driest", false),
    ("coldest", false),
    ("busiest", true),
    ("quietest", false),
    ("strongest", true),
    ("weakest", false),
    ("deadliest", true),
    ("costliest", true),
    ("popular", true),
];

/// The months' names as questions write them, January first.
pub const MONTHS: [&[&str]; 12] = [
    &["january", "jan"],
    &["february", "feb"],
    &["march", "mar"],
    &["april", "apr"],
    &["may"],
    &["june", "jun"],
    &["july", "jul"],
    &["august", "aug"],
    &["september", "sep", "sept"],
    &["october", "oct"],
    &["november", "nov"],
    &["december", "dec"],
];

/// Words for the sexes and the values tables write them as ("female cats"
/// of a column `Sex` holding F and M).
pub const SEXES: &[(&[&str], &[&str])] = &[
    (
        &["female", "females", "women", "woman", "girls", "girl"],
        &["f", "female", "women", "woman", "w"],
    ),
    (
        &["male", "males", "men", "man", "boys", "boy"],
        &["m", "male", "men", "man"],
    ),
];

/// Words before "by" that colour by a column ("colored by league",
/// "stacked by sex"), and before "for each" or "per" ("a different color
/// for each clarity", "one line per team").
pub const COLOUR_BY: &[&str] = &[
    "colored",
    "coloured",
    "color",
    "colour",
    "stacked",
    "split",
    "grouped",
    "segmented",
];

pub const COLOUR_EACH: &[&str] = &[
    "color", "colour", "line", "lines", "bar", "series", "colors",
];

/// Words before a value that negate it ("not equal to Fair", "not from
/// ORD", "other than Sat", "!= None"), and the words between them and the
/// value that say nothing more.
pub const NEGATIONS: &[&str] = &[
    "not",
    "!=",
    "except",
    "excluding",
    "other",
    "non",
    "isn't",
    "aren't",
];

pub const NEGATION_GAPS: &[&str] = &[
    "equal", "equals", "to", "than", "from", "in", "is", "the", "a", "for",
];

/// Words a question opens with before the things it lists ("show me the
/// names of", "which").
pub const LIST_LEADS: &[&str] = &[
    "show", "list", "display", "find", "give", "me", "all", "the", "which", "what", "are", "is",
    "names", "name", "of",
];

/// Verbs that ask for rows ("list states …", "show names and ages where …").
pub const LIST_VERBS: &[&str] = &["list", "show", "display", "find"];

/// Words after a plural that say which of them ("cats with", "flights
/// from", "animals that").
pub const ROW_FOLLOWERS: &[&str] = &[
    "with", "where", "that", "whose", "which", "when", "from", "having", "who",
];

/// Names of a column that holds counts of the things its row stands for,
/// the table being counted already.
pub const COUNT_COLUMNS: &[&str] = &[
    "count",
    "n",
    "freq",
    "frequency",
    "cnt",
    "num",
    "counts",
    "tally",
];

/// Words that ask for an order without a ranking word ("sort", "in
/// descending order"): what they order is said after them ("by the
/// x-axis", "of the total", "by name").
pub const ORDER_WORDS: &[&str] = &[
    "sort", "sorted", "sorting", "order", "ordered", "ordering", "arrange", "arranged", "rank",
    "ranked", "ranking",
];

/// Phrases of an order's direction, longest first: descending or not.
pub const DIRECTIONS: &[(&str, bool)] = &[
    ("from highest to lowest", true),
    ("from largest to smallest", true),
    ("from biggest to smallest", true),
    ("from most to least", true),
    ("from high to low", true),
    ("from lowest to highest", false),
    ("from smallest to largest", false),
    ("from least to most", false),
    ("from low to high", false),
    ("highest to lowest", true),
    ("largest to smallest", true),
    ("most to least", true),
    ("high to low", true),
    ("lowest to highest", false),
    ("smallest to largest", false),
    ("least to most", false),
    ("low to high", false),
    ("reverse alphabetical", true),
    ("z to a", true),
    ("a to z", false),
    ("descending", true),
    ("decreasing", true),
    ("desc", true),
    ("ascending", false),
    ("increasing", false),
    ("asc", false),
    ("alphabetical", false),
    ("alphabetically", false),
    ("chronological", false),
    ("chronologically", false),
];

/// Direction phrases that order the x axis whatever follows them.
pub const AXIS_DIRECTIONS: &[&str] = &[
    "z to a",
    "a to z",
    "reverse alphabetical",
    "alphabetical",
    "alphabetically",
    "chronological",
    "chronologically",
];

/// Words after "by"/"of" in an order that name the x axis ("by the
/// x-axis", "by name", "by date") or the measure ("by the y-axis", "of
/// the total").
pub const AXIS_TARGETS: &[&str] = &[
    "x", "name", "names", "date", "dates", "time", "label", "labels",
];
pub const MEASURE_TARGETS: &[&str] = &[
    "y",
    "total",
    "sum",
    "average",
    "mean",
    "median",
    "count",
    "number",
    "value",
    "values",
    "amount",
    "maximum",
    "minimum",
    "max",
    "min",
    "frequency",
];

/// Adjectives that name a measure by what it measures ("heavier than
/// 5000", "the oldest", "lowest paid"): the column words each may find.
pub const ADJECTIVES: &[(&[&str], &[&str])] = &[
    (
        &[
            "heavy", "heavier", "heaviest", "lighter", "lightest", "weighing", "weigh", "weighs",
        ],
        &["weight", "mass"],
    ),
    (
        &["older", "oldest", "younger", "youngest", "aged"],
        &["age"],
    ),
    (
        &[
            "deep",
            "deeper",
            "deepest",
            "shallow",
            "shallower",
            "shallowest",
        ],
        &["depth"],
    ),
    (&["populous", "populated"], &["population", "pop"]),
    (
        &["tall", "taller", "tallest", "short", "shorter", "shortest"],
        &["height"],
    ),
    (
        &["longer", "longest", "short", "shorter", "shortest"],
        &["length", "duration", "running time", "runtime"],
    ),
    (
        &[
            "wet", "wetter", "wettest", "rainier", "rainiest", "drier", "driest",
        ],
        &["precipitation", "rainfall", "rain"],
    ),
    (
        &[
            "hot", "hotter", "hottest", "warmer", "warmest", "colder", "coldest",
        ],
        &["temperature", "temp"],
    ),
    (&["windy", "windier", "windiest"], &["wind"]),
    (
        &["fast", "faster", "fastest", "slower", "slowest"],
        &["speed"],
    ),
    (
        &["paid", "earning", "earns"],
        &["salary", "pay", "wage", "income"],
    ),
    (
        &["expensive", "cheaper", "cheapest", "pricey"],
        &["price", "cost", "fare", "fee", "value"],
    ),
    (
        &["richer", "richest", "poorer", "poorest"],
        &["income", "gdp", "wealth"],
    ),
];

pub fn is_adjective(word: &str) -> bool {
    ADJECTIVES.iter().any(|(words, _)| words.contains(&word))
}

/// Time grain words.
pub const GRAINS: &[(&str, Grain)] = &[
    ("day of the week", Grain::Weekday),
    ("day of week", Grain::Weekday),
    ("weekday", Grain::Weekday),
    ("weekdays", Grain::Weekday),
    ("daily", Grain::Day),
    ("day", Grain::Day),
    ("days", Grain::Day),
    ("weekly", Grain::Week),
    ("week", Grain::Week),
    ("weeks", Grain::Week),
    ("monthly", Grain::Month),
    ("month", Grain::Month),
    ("months", Grain::Month),
    ("quarterly", Grain::Quarter),
    ("quarter", Grain::Quarter),
    ("quarters", Grain::Quarter),
    ("yearly", Grain::Year),
    ("annual", Grain::Year),
    ("annually", Grain::Year),
    ("year", Grain::Year),
    ("years", Grain::Year),
    ("decade", Grain::Year),
    ("per annum", Grain::Year),
    ("each year", Grain::Year),
];

/// Trend words (beside a grain or a date column named).
pub const TRENDS: &[&str] = &[
    "over time",
    "over the years",
    "through the years",
    "across time",
    "trend",
    "trends",
    "trending",
    "evolution",
    "evolved",
    "history",
    "historical",
    "changed",
    "change over",
    "grown",
    "growth",
];

pub const DISTRIBUTIONS: &[&str] = &[
    "distribution",
    "distributions",
    "distributed",
    "spread",
    "histogram",
    "range of",
    "variation",
];

pub const CORRELATIONS: &[&str] = &[
    "correlation",
    "correlations",
    "correlate",
    "correlates",
    "correlated",
    "relationship",
    "related",
    "relate",
    "against",
    "association",
];

/// Words of a share that name a table's column of percentages.
pub const PERCENTAGES: &[&str] = &[
    "percentage",
    "percent",
    "perc",
    "pct",
    "share",
    "proportion",
];

pub const SHARES: &[&str] = &[
    "share",
    "shares of",
    "percent of",
    "percentage",
    "proportion",
    "breakdown",
    "composition",
    "fraction",
    "split of",
];

pub const COMPARES: &[&str] = &["compare", "comparison", "vs", "versus", "compared"];

/// Comparison words that set two things against each other ("X vs Y"):
/// the recommender's scatter, whatever X and Y are.
pub const VERSUS: &[&str] = &["vs", "versus"];

/// Synonyms of common column names: a question's word for one of a
/// group finds a column named by another.
pub const SYNONYMS: &[&[&str]] = &[
    &["horsepower", "hp"],
    &[
        "mile per gallon",
        "mpg",
        "mileage",
        "fuel economy",
        "fuel efficiency",
        "gas mileage",
    ],
    &["displacement", "engine size"],
    &["weight", "weight in lb", "weight in lbs", "heaviness"],
    &["sale", "revenue", "turnover"],
    &["unit", "quantity", "qty", "units sold", "items sold"],
    &[
        "price",
        "closing price",
        "close",
        "stock price",
        "share price",
        "value",
        "worth",
    ],
    &["temperature", "temp"],
    &["precipitation", "rainfall"],
    &["population", "pop", "inhabitant", "people"],
    &["life expectancy", "lifespan", "longevity", "life"],
    &[
        "fertility",
        "birth rate",
        "baby per woman",
        "child per woman",
    ],
    &["gross", "box office", "earning"],
    &["budget", "production budget", "cost"],
    &["rating", "score"],
    &["country", "nation"],
    &["region", "territory"],
    &["product", "item"],
    &["symbol", "ticker", "company", "stock"],
    &["genre", "kind of movie"],
    &["date", "day", "time", "when"],
    &["goal", "score"],
    &["age", "year old", "old"],
    &["profit", "margin", "earnings"],
    &["female", "girl", "woman", "women"],
    &["male", "boy", "man", "men"],
];

/// Words of a measure's name that make it a rate or a level: averaged,
/// never summed across rows.
pub const RATES: &[&str] = &[
    "rate",
    "ratio",
    "average",
    "avg",
    "mean",
    "median",
    "percent",
    "percentage",
    "perc",
    "pct",
    "share",
    "per",
    "expectancy",
    "fertility",
    "temp",
    "temperature",
    "price",
    "rating",
    "score",
    "speed",
    "wind",
    "age",
    "index",
    "mpg",
    "gallon",
    "acceleration",
    "horsepower",
    "displacement",
    "weight",
    "cylinder",
    "height",
    "length",
    "width",
    "min",
    "max",
    "density",
    "margin",
];

/// Words of a measure's name that make it a level: a bar of it per
/// thing reads the latest date of a panel, not a sum over dates.
pub const LEVELS: &[&str] = &[
    "population",
    "price",
    "close",
    "balance",
    "inventory",
    "stock",
];

/// Words of a measure's name that make it a flow: summed across rows.
pub const FLOWS: &[&str] = &[
    "sale",
    "revenue",
    "unit",
    "gross",
    "amount",
    "total",
    "count",
    "quantity",
    "generation",
    "precipitation",
    "goal",
    "vote",
    "budget",
    "cost",
    "profit",
    "population",
    "spend",
    "spending",
    "order",
    "visit",
    "click",
    "volume",
];

/// Words that carry no meaning of their own here: never reported as
/// ignored, never matched to a column by misspelling or in part.
pub const STOPWORDS: &[&str] = &[
    "the",
    "a",
    "an",
    "of",
    "in",
    "on",
    "for",
    "to",
    "by",
    "with",
    "show",
    "me",
    "what",
    "how",
    "is",
    "are",
    "was",
    "were",
    "do",
    "does",
    "did",
    "it",
    "its",
    "as",
    "per",
    "and",
    "or",
    "from",
    "at",
    "than",
    "that",
    "which",
    "who",
    "where",
    "there",
    "their",
    "this",
    "these",
    "those",
    "has",
    "have",
    "had",
    "be",
    "give",
    "get",
    "tell",
    "display",
    "plot",
    "draw",
    "visualize",
    "visualise",
    "chart",
    "graph",
    "please",
    "can",
    "you",
    "i",
    "we",
    "my",
    "our",
    "all",
    "each",
    "every",
    "data",
    "about",
    "much",
    "many",
    "often",
    "over",
    "vs",
    "versus",
    "between",
    "since",
    "after",
    "before",
    "into",
    "across",
    "make",
    "create",
    "want",
    "see",
    "like",
    "some",
    "any",
    "view",
    "return",
    "find",
    "list",
    "could",
    "would",
    "whose",
    "group",
    "grouped",
    "bin",
    "binned",
    "using",
    "use",
    "interval",
    "intervals",
    "binning",
    "them",
    "they",
];

/// Numbers as words, one to twenty: "top five".
pub const NUMBER_WORDS: &[&str] = &[
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
];

/// Words that scale the number before them: "2 million".
pub const SCALES: &[(&str, f64)] = &[
    ("thousand", 1e3),
    ("million", 1e6),
    ("millions", 1e6),
    ("billion", 1e9),
    ("billions", 1e9),
];

/// Words left out of the full-text search of the datasets' names,
/// descriptions and values (`knowledge_search`): they name no dataset.
pub const UNSEARCHED: &[&str] = &[
    "the", "of", "and", "in", "on", "for", "to", "a", "an", "by", "with", "show", "me", "what",
    "how", "is", "are", "over", "from", "as", "per", "vs", "versus", "chart",
];

pub fn is_stopword(word: &str) -> bool {
    STOPWORDS.contains(&word)
}

/// Words of the rules beside the lists above: comparisons, periods and
/// the like, never taken for a column.
const OTHER_RULE_WORDS: &[&str] = &[
    "time", "more", "less", "fewer", "greater", "higher", "lower", "above", "below", "under",
    "least", "than", "until", "till", "during", "only", "just", "not", "up", "as", "versus",
    "equal", "equals", "=", "!=", ">", "<", ">=", "<=", "axis", "high", "low", "latest", "last",
    "first", "recent", "year", "years", "month", "months",
];

/// Whether `word` is a word of the rules (not to be taken for a column).
pub fn is_rule_word(word: &str) -> bool {
    is_stopword(word)
        || CHARTS.iter().any(|(w, _)| *w == word)
        || AGGREGATES.iter().any(|(w, _)| *w == word)
        || RANKS.iter().any(|(w, _)| *w == word)
        || GRAINS.iter().any(|(w, _)| *w == word)
        || TRENDS.contains(&word)
        || DISTRIBUTIONS.contains(&word)
        || CORRELATIONS.contains(&word)
        || SHARES.contains(&word)
        || COMPARES.contains(&word)
        || CUMULATIVES.contains(&word)
        || LATESTS.contains(&word)
        || HEADLINES.contains(&word)
        || OTHER_RULE_WORDS.contains(&word)
        || ORDER_WORDS.contains(&word)
        || DIRECTIONS.iter().any(|(w, _)| *w == word)
}

/// How a comparison keeps rows: above, at least, below or at most its
/// number, between two, or equal to one (a year).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    Above,
    AtLeast,
    Below,
    AtMost,
    Between,
    Equal,
    NotEqual,
}

/// Words after a number that bound it ("4 or more bedrooms", "aged 65
/// or over").
pub const TRAILING_BOUNDS: &[(&str, Bound)] = &[
    ("or more", Bound::AtLeast),
    ("or over", Bound::AtLeast),
    ("or older", Bound::AtLeast),
    ("or above", Bound::AtLeast),
    ("and over", Bound::AtLeast),
    ("and above", Bound::AtLeast),
    ("and older", Bound::AtLeast),
    ("or less", Bound::AtMost),
    ("or fewer", Bound::AtMost),
    ("or under", Bound::AtMost),
    ("or younger", Bound::AtMost),
    ("or below", Bound::AtMost),
    ("and under", Bound::AtMost),
    ("and below", Bound::AtMost),
    ("and younger", Bound::AtMost),
];

/// Comparison words, two-word ones first: how each keeps rows. The
/// number follows within four words ("under the age of 30").
pub const COMPARISONS: &[(&str, Bound)] = &[
    ("greater than or equal to", Bound::AtLeast),
    ("more than or equal to", Bound::AtLeast),
    ("larger than or equal to", Bound::AtLeast),
    ("higher than or equal to", Bound::AtLeast),
    ("less than or equal to", Bound::AtMost),
    ("smaller than or equal to", Bound::AtMost),
    ("lower than or equal to", Bound::AtMost),
    ("fewer than or equal to", Bound::AtMost),
    ("not equal to", Bound::NotEqual),
    ("equal to", Bound::Equal),
    ("equals", Bound::Equal),
    ("!=", Bound::NotEqual),
    ("=", Bound::Equal),
    ("more than", Bound::Above),
    ("greater than", Bound::Above),
    ("higher than", Bound::Above),
    ("larger than", Bound::Above),
    ("bigger than", Bound::Above),
    ("longer than", Bound::Above),
    ("older than", Bound::Above),
    ("heavier than", Bound::Above),
    ("taller than", Bound::Above),
    ("faster than", Bound::Above),
    ("richer than", Bound::Above),
    ("less than", Bound::Below),
    ("fewer than", Bound::Below),
    ("lower than", Bound::Below),
    ("smaller than", Bound::Below),
    ("shorter than", Bound::Below),
    ("younger than", Bound::Below),
    ("lighter than", Bound::Below),
    ("slower than", Bound::Below),
    ("cheaper than", Bound::Below),
    ("deeper than", Bound::Above),
    ("shallower than", Bound::Below),
    ("poorer than", Bound::Below),
    ("at least", Bound::AtLeast),
    ("no less", Bound::AtLeast),
    ("at most", Bound::AtMost),
    ("no more", Bound::AtMost),
    ("up to", Bound::AtMost),
    ("over", Bound::Above),
    ("above", Bound::Above),
    ("exceeding", Bound::Above),
    ("exceeds", Bound::Above),
    (">", Bound::Above),
    ("under", Bound::Below),
    ("below", Bound::Below),
    ("<", Bound::Below),
    (">=", Bound::AtLeast),
    ("<=", Bound::AtMost),
    ("between", Bound::Between),
    ("from", Bound::Between),
    ("since", Bound::AtLeast),
    ("after", Bound::Above),
    ("before", Bound::Below),
    ("until", Bound::AtMost),
    ("till", Bound::AtMost),
    ("through", Bound::AtMost),
    ("in", Bound::Equal),
    ("during", Bound::Equal),
    ("of", Bound::Equal),
];

/// Words that join the two ends of a range ("between 5 and 10").
pub const RANGE_JOINS: &[&str] = &["and", "to", "through"];

/// Comparison words that compare only years ("in 2005", "since 1990").
pub const YEAR_COMPARISONS: &[&str] = &[
    "in", "during", "of", "since", "after", "before", "until", "till", "through", "from", "between",
];

/// Comparison words whose number is the very next word ("in the 2000s" is
/// a decade, not a year).
pub const NEXT_WORD_COMPARISONS: &[&str] = &["in", "during", "of", "=", "!=", "equals"];

/// Words before a column that group by it ("by region", "across sites");
/// "for each" too.
pub const GROUPINGS: &[&str] = &["by", "per", "each", "across", "among", "between"];

/// Words before a grain that make it one ("by month", "each year"); words
/// ending in "ly" and "annual" are grains alone.
pub const GRAIN_LEADS: &[&str] = &[
    "by", "per", "each", "every", "a", "over", "the", "across", "which", "what", "into", "axis",
];

/// Ordinals as tables write them ("first class" of `1st`).
pub const ORDINALS: &[(&str, &str)] = &[
    ("first", "1st"),
    ("second", "2nd"),
    ("third", "3rd"),
    ("fourth", "4th"),
    ("fifth", "5th"),
];

/// Kinds of place a column of places holds ("by state" of a column
/// `name` of US states).
pub const PLACE_NOUNS: &[&str] = &[
    "state",
    "country",
    "nation",
    "province",
    "territory",
    "place",
    "location",
];

/// Periods as rows are counted or listed ("how many hours", "months
/// where …").
pub const PERIODS: &[&str] = &[
    "hours", "days", "weeks", "months", "quarters", "years", "times",
];

/// Words after a leading date column that list its rows ("years with …").
pub const LISTINGS: &[&str] = &["with", "when", "where", "that", "in"];

/// Ranking words that, beside a trend, ask for the extreme of each period
/// ("highest temperature by month").
pub const EXTREMES: &[&str] = &["highest", "lowest", "most", "least"];

/// Words before "table" that make it a chart word ("as a table").
pub const TABLE_LEADS: &[&str] = &["a", "as", "in", "into"];

/// Words that group by what follows ("by region", "per state"); the words
/// after one that no column has may be the table's one category ("by
/// disaster type").
pub const BY_WORDS: &[&str] = &["by", "per"];

/// Words never reported as ignored though no rule reads them alone.
pub const NEVER_IGNORED: &[&str] = &["compare", "against", "when", "which"];

/// "Adding a question word" (docs/architecture.md) kept true: each word
/// the lexicon holds for a card type, a running total or the value now is
/// read into the plan, which every endpoint answers from, and the chart
/// words are on the page users read (docs/service-api.md).
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::query::{understand, Aliases, Plan};
    use crate::table::{read_csv, Table};
    use zdr_limits::Stop;

    fn cars() -> Table {
        let csv = include_str!("../../datasets/cars.csv");
        read_csv(csv.as_bytes(), &Stop::never()).unwrap()
    }

    fn plan(question: &str, table: &Table) -> Plan {
        understand(question, table, &Aliases::default())
    }

    #[test]
    fn every_chart_word_asks_for_its_card_and_is_documented() {
        let table = cars();
        let docs = include_str!("../../../../docs/service-api.md");
        let mut wrong = Vec::new();
        for &(word, kind) in CHARTS {
            let question = format!("show mpg by origin as a {word}");
            let asked = plan(&question, &table).chart.map(|(kind, _)| kind);
            if asked != Some(kind) {
                wrong.push(format!("{question:?} asks for {asked:?}, not {kind:?}"));
            }
            if !docs.contains(&format!("\"{word}\"")) {
                wrong.push(format!("\"{word}\" is not in docs/service-api.md"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn every_word_of_a_running_total_or_the_value_now_is_read() {
        let table = cars();
        for word in CUMULATIVES {
            let question = format!("{word} weight over the years");
            assert!(plan(&question, &table).cumulative, "{question:?}");
        }
        for word in LATESTS {
            let question = format!("{word} weight");
            assert!(plan(&question, &table).latest, "{question:?}");
        }
        for word in HEADLINES {
            let question = format!("weight {word}");
            assert!(plan(&question, &table).headline, "{question:?}");
        }
    }
}
