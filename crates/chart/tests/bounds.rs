// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! Output in proportion to the input: no post of at most 64 KB may draw more
//! than [`MAX_SVG`] bytes of SVG at any of the host's four frame sizes (the
//! host puts all four into one page, which must stay under 2 MB), and
//! reading plus drawing stays quick. Every input here is built to maximise
//! marks for one card type; each either draws within the bound or is
//! refused with an error that names `data`.

use std::time::{Duration, Instant};

use zdr_chart::model::{
    CardKind, VisualizationData, MAX_BARS, MAX_BOXES, MAX_CATEGORIES, MAX_SERIES,
    MAX_TABLE_COLUMNS, MAX_TIMELINE_ROWS,
};
use zdr_chart::Chart;

/// The largest body the bound is promised for.
const MAX_BODY: usize = 64 * 1024;
/// A quarter of the 2 MB page, less room for the page around it.
const MAX_SVG: usize = 450 * 1024;
/// The frame shapes the host draws (landscape, wide, square, narrow).
const SIZES: [(u32, u32); 4] = [(880, 540), (820, 400), (640, 580), (400, 360)];
/// Generous for a debug build; a quadratic path takes minutes here.
const MAX_TIME: Duration = Duration::from_secs(8);

/// `head` + as many `item(i)` as fit in [`MAX_BODY`] (comma separated) + `tail`.
fn fill(head: &str, tail: &str, item: impl Fn(usize) -> String) -> String {
    fill_n(head, tail, usize::MAX, item)
}

/// Like [`fill`], with at most `count` items: inputs right at a cap.
fn fill_n(head: &str, tail: &str, count: usize, item: impl Fn(usize) -> String) -> String {
    let mut text = head.to_string();
    let budget = MAX_BODY - tail.len();
    for i in 0..count {
        let next = item(i);
        let sep = usize::from(i > 0);
        if text.len() + sep + next.len() > budget {
            break;
        }
        if sep == 1 {
            text.push(',');
        }
        text.push_str(&next);
    }
    text.push_str(tail);
    assert!(text.len() <= MAX_BODY);
    text
}

fn head(kind: &str, data: &str) -> String {
    if kind.is_empty() {
        format!("{{\"viz_config\":{{\"title\":\"t\"}},\"data\":{data}")
    } else {
        format!("{{\"viz_config\":{{\"title\":\"t\",\"viz_component_type\":\"{kind}\"}},\"data\":{data}")
    }
}

/// One point per distinct category: the most bars, slices, boxes or codes.
fn points(kind: &str) -> String {
    fill(&head(kind, "["), "]}", |i| {
        format!("{{\"x\":\"c{i}\",\"y\":{}}}", i % 97)
    })
}

/// Many one-point series, each with its own category: series × categories cells.
fn series_own_x(kind: &str) -> String {
    fill(&head(kind, "{\"series\":["), "]}}", |i| {
        format!("{{\"name\":\"s{i}\",\"points\":[{{\"x\":\"c{i}\",\"y\":{i}}}]}}")
    })
}

/// Many one-point series sharing one category: legend entries and bars.
fn series_shared_x(kind: &str) -> String {
    fill(&head(kind, "{\"series\":["), "]}}", |i| {
        format!("{{\"name\":\"s{i}\",\"points\":[{{\"x\":\"a\",\"y\":{i}}}]}}")
    })
}

fn corpus() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for kind in CardKind::ALL {
        let name = kind.as_str();
        out.push((format!("{name}: points"), points(name)));
        out.push((format!("{name}: series with own x"), series_own_x(name)));
        out.push((format!("{name}: series sharing x"), series_shared_x(name)));
    }
    let add = |out: &mut Vec<(String, String)>, name: &str, text: String| {
        out.push((name.to_string(), text));
    };
    // Right at the caps: the most marks a card that is drawn can have.
    for name in [
        "bar",
        "grouped_bar",
        "stacked_bar",
        "waterfall",
        "pie",
        "choropleth",
    ] {
        out.push((
            format!("{name}: {MAX_CATEGORIES} categories"),
            fill_n(&head(name, "["), "]}", MAX_CATEGORIES, |i| {
                format!("{{\"x\":\"c{i}\",\"y\":{}}}", i % 97 + 1)
            }),
        ));
        out.push((
            format!("{name}: series by categories"),
            fill_n(&head(name, "{\"series\":["), "]}}", MAX_BARS / 20, |i| {
                let points: Vec<String> = (0..20)
                    .map(|j| format!("{{\"x\":\"c{j}\",\"y\":{}}}", (i + j) % 9 + 1))
                    .collect();
                format!("{{\"name\":\"s{i}\",\"points\":[{}]}}", points.join(","))
            }),
        ));
    }
    for name in ["grouped_bar", "stacked_bar"] {
        let columns: Vec<String> = (0..=50).map(|c| format!("\"{c}\"")).collect();
        out.push((
            format!("{name}: table of {MAX_BARS} cells"),
            fill_n(
                &head(
                    name,
                    &format!("{{\"columns\":[{}],\"rows\":[", columns.join(",")),
                ),
                "]}}",
                MAX_BARS / 50,
                |r| format!("[\"r{r}\",{}]", vec!["1"; 50].join(",")),
            ),
        ));
    }
    let series_columns: Vec<String> = (0..=MAX_SERIES).map(|c| format!("\"{c}\"")).collect();
    let series_table = |kind: &str| {
        head(
            kind,
            &format!("{{\"columns\":[{}],\"rows\":[", series_columns.join(",")),
        )
    };
    add(
        &mut out,
        "timeseries: table of sparse series",
        fill_n(&series_table("timeseries"), "]}}", 60, |r| {
            format!("[\"{}\",{}]", 1900 + r, vec!["1"; MAX_SERIES].join(","))
        }),
    );
    add(
        &mut out,
        "timeseries: table of gaps",
        fill(&series_table("timeseries"), "]}}", |r| {
            let cells: Vec<&str> = (0..MAX_SERIES)
                .map(|c| if (r + c) % 2 == 0 { "1" } else { "null" })
                .collect();
            format!("[\"{}\",{}]", 1000 + r, cells.join(","))
        }),
    );
    add(
        &mut out,
        "scatter: table of series",
        fill(&series_table("scatter"), "]}}", |r| {
            let cells: Vec<String> = (0..MAX_SERIES)
                .map(|c| format!("{}", (r * 7 + c * 13) % 97))
                .collect();
            format!("[{r},{}]", cells.join(","))
        }),
    );
    add(
        &mut out,
        "choropleth: every country",
        fill(&head("choropleth", "["), "]}", |i| {
            let code = format!(
                "{}{}",
                char::from(b'A' + (i / 26 % 26) as u8),
                char::from(b'A' + (i % 26) as u8)
            );
            format!("{{\"x\":\"{code}\",\"y\":{i}}}")
        }),
    );
    add(
        &mut out,
        "timeseries: most series",
        fill_n(
            &head("timeseries", "{\"series\":["),
            "]}}",
            MAX_SERIES,
            |i| {
                let points: Vec<String> = (0..8)
                    .map(|j| format!("{{\"x\":\"2024-0{}-01\",\"y\":{}}}", j + 1, (i * j) % 13))
                    .collect();
                format!("{{\"points\":[{}]}}", points.join(","))
            },
        ),
    );
    add(
        &mut out,
        "scatter: most series",
        fill_n(&head("scatter", "{\"series\":["), "]}}", MAX_SERIES, |i| {
            let points: Vec<String> = (0..12)
                .map(|j| format!("{{\"x\":{},\"y\":{}}}", i * 12 + j, (i * 7 + j * 13) % 101))
                .collect();
            format!("{{\"points\":[{}]}}", points.join(","))
        }),
    );
    add(
        &mut out,
        "boxplot: most boxes",
        fill_n(&head("boxplot", "["), "]}", MAX_BOXES, |i| {
            format!("{{\"x\":\"b{i}\",\"values\":[0,1,2,{}]}}", i % 50 + 40)
        }),
    );
    add(
        &mut out,
        "timeline: most rows",
        fill_n(&head("timeline", "["), "]}", MAX_TIMELINE_ROWS, |i| {
            format!(
                "{{\"label\":\"{i}\",\"start\":{},\"end\":2000}}",
                1000 + i % 999
            )
        }),
    );
    add(&mut out, "table: most columns", {
        let columns: Vec<String> = (0..MAX_TABLE_COLUMNS)
            .map(|c| format!("\"c{c}\""))
            .collect();
        fill(
            &head(
                "table",
                &format!("{{\"columns\":[{}],\"rows\":[", columns.join(",")),
            ),
            "]}}",
            |r| format!("[{}]", vec![format!("{r}"); MAX_TABLE_COLUMNS].join(",")),
        )
    });
    add(
        &mut out,
        "heatmap: most columns",
        fill(&head("heatmap", "["), "]}", |i| {
            format!("{{\"x\":{},\"y\":{},\"value\":{i}}}", i % 1000, i / 1000)
        }),
    );
    add(
        &mut out,
        "scatter: distinct points",
        fill(&head("scatter", "["), "]}", |i| {
            format!("{{\"x\":{},\"y\":{}}}", i % 613, (i * 7919) % 1009)
        }),
    );
    add(
        &mut out,
        "scatter: one-point series",
        fill(&head("scatter", "{\"series\":["), "]}}", |i| {
            format!("{{\"points\":[{{\"x\":{i},\"y\":{}}}]}}", (i * 31) % 997)
        }),
    );
    add(
        &mut out,
        "timeseries: many series",
        fill(&head("timeseries", "{\"series\":["), "]}}", |i| {
            format!(
                "{{\"points\":[{{\"x\":\"2024-01-{:02}\",\"y\":{i}}},{{\"x\":\"2024-02-01\",\"y\":1}}]}}",
                i % 28 + 1
            )
        }),
    );
    add(
        &mut out,
        "timeseries: daily points",
        fill(&head("timeseries", "["), "]}", |i| {
            format!(
                "{{\"x\":\"{}-{:02}-{:02}\",\"y\":{}}}",
                1900 + i / 336,
                i / 28 % 12 + 1,
                i % 28 + 1,
                (i * 37) % 101
            )
        }),
    );
    add(
        &mut out,
        "heatmap: diagonal of 500",
        fill(&head("heatmap", "["), "]}", |i| {
            if i < 500 {
                format!("{{\"x\":\"{i}\",\"y\":\"{i}\",\"value\":{i}}}")
            } else {
                String::from("{\"x\":\"0\",\"y\":\"0\",\"value\":1}")
            }
        }),
    );
    add(
        &mut out,
        "heatmap: long diagonal",
        fill(&head("heatmap", "["), "]}", |i| {
            format!("{{\"x\":\"{i}\",\"y\":\"{i}\",\"value\":1}}")
        }),
    );
    add(&mut out, "heatmap: dense matrix", {
        let columns: Vec<String> = (0..181).map(|c| format!("\"{c}\"")).collect();
        fill(
            &head(
                "heatmap",
                &format!("{{\"columns\":[{}],\"rows\":[", columns.join(",")),
            ),
            "]}}",
            |r| format!("[\"r{r}\",{}]", vec!["1"; 180].join(",")),
        )
    });
    add(
        &mut out,
        "heatmap: dense points",
        fill(&head("heatmap", "["), "]}", |i| {
            format!("{{\"x\":{},\"y\":{},\"value\":{i}}}", i % 60, i / 60)
        }),
    );
    add(
        &mut out,
        "boxplot: outliers",
        fill(
            &head("boxplot", "[{\"x\":\"a\",\"values\":["),
            "]}]}",
            |i| {
                if i % 2 == 0 {
                    "0".into()
                } else {
                    format!("{i}")
                }
            },
        ),
    );
    add(
        &mut out,
        "boxplot: outliers in many boxes",
        fill(&head("boxplot", "["), "]}", |i| {
            format!("{{\"x\":\"b{}\",\"values\":[0,0,0,0,0,0,{i}]}}", i % 400)
        }),
    );
    add(
        &mut out,
        "timeline: many rows",
        fill(&head("timeline", "["), "]}", |i| {
            format!(
                "{{\"label\":\"r{i}\",\"start\":{},\"end\":2000}}",
                1000 + i % 999
            )
        }),
    );
    add(
        &mut out,
        "table: one wide point",
        fill(&head("table", "[{"), "}]}", |i| format!("\"k{i}\":1")),
    );
    add(
        &mut out,
        "table: distinct keys per point",
        fill(&head("table", "["), "]}", |i| format!("{{\"k{i}\":1}}")),
    );
    add(&mut out, "table: many columns", {
        let columns: Vec<String> = (0..4000).map(|c| format!("\"{c}\"")).collect();
        fill(
            &head(
                "table",
                &format!("{{\"columns\":[{}],\"rows\":[", columns.join(",")),
            ),
            "]}}",
            |_| format!("[{}]", vec!["1"; 4000].join(",")),
        )
    });
    add(
        &mut out,
        "table: many rows",
        fill(
            &head("table", "{\"columns\":[\"a\",\"b\"],\"rows\":["),
            "]}}",
            |i| format!("[\"{i}\",{i}]"),
        ),
    );
    add(
        &mut out,
        "table: long cells",
        fill(
            &head("table", "{\"columns\":[\"a\",\"b\"],\"rows\":["),
            "]}}",
            |i| format!("[\"{}\",{i}]", "w ".repeat(2000)),
        ),
    );
    add(
        &mut out,
        "choropleth: unknown codes",
        fill(&head("choropleth", "["), "]}", |i| {
            format!("{{\"x\":\"Q{i}\",\"y\":{i}}}")
        }),
    );
    add(
        &mut out,
        "histogram: spread values",
        fill(&head("histogram", "["), "]}", |i| {
            format!("{{\"y\":{}}}", i * i)
        }),
    );
    add(
        &mut out,
        "long title and labels",
        format!(
            "{{\"viz_config\":{{\"title\":\"{}\",\"x_label\":\"{}\",\"units\":\"{}\"}},\"data\":[{{\"x\":\"{}\",\"y\":1}}]}}",
            "T ".repeat(8000),
            "x".repeat(8000),
            "u".repeat(8000),
            "c".repeat(8000)
        ),
    );
    // The newer types at their most: places, cells, stacked dates, a sparkline.
    for name in ["map", "bubble_map"] {
        add(
            &mut out,
            &format!("{name}: as many labelled places as fit"),
            fill(&head(name, "["), "]}", |i| {
                format!(
                    "{{\"lat\":{},\"lon\":{},\"label\":\"p{i}\",\"value\":{}}}",
                    (i % 170) as i64 - 85,
                    ((i * 7) % 350) as i64 - 175,
                    i % 13 + 1
                )
            }),
        );
    }
    add(
        &mut out,
        "bubble_map: region codes",
        fill(&head("bubble_map", "["), "]}", |i| {
            let codes = ["FR", "DE", "US", "BR", "JP", "IN", "CN", "ZZ"];
            format!("{{\"x\":\"{}\",\"y\":{i}}}", codes[i % codes.len()])
        }),
    );
    add(
        &mut out,
        "treemap: grouped categories",
        fill(&head("treemap", "["), "]}", |i| {
            format!(
                "{{\"x\":\"c{i}\",\"y\":{},\"group\":\"g{}\"}}",
                i % 97 + 1,
                i % 40
            )
        }),
    );
    add(
        &mut out,
        "top_level_metric: a long sparkline",
        fill(&head("top_level_metric", "["), "]}", |i| {
            format!("{{\"x\":{},\"y\":{}}}", 1000 + i % 9000, i % 31)
        }),
    );
    add(
        &mut out,
        "stacked_area_timeseries: series on their own dates",
        fill(
            &head("stacked_area_timeseries", "{\"series\":["),
            "]}}",
            |i| {
                format!(
                    "{{\"name\":\"s{i}\",\"points\":[{{\"x\":{},\"y\":{}}}]}}",
                    1000 + i,
                    i % 9
                )
            },
        ),
    );
    // Inferred kinds take the same paths as forced ones, from other shapes.
    add(&mut out, "inferred: grouped table", {
        let columns: Vec<String> = (0..3000).map(|c| format!("\"{c}\"")).collect();
        fill(
            &head(
                "",
                &format!("{{\"columns\":[{}],\"rows\":[", columns.join(",")),
            ),
            "]}}",
            |r| format!("[\"r{r}\",{}]", vec!["1"; 2999].join(",")),
        )
    });
    out
}

/// Each input draws within the bounds at every frame size, or is refused
/// with an error about `data`.
#[test]
fn small_posts_draw_small_pages() {
    let mut failures = Vec::new();
    for (name, text) in corpus() {
        let started = Instant::now();
        let chart = match Chart::from_json(&text) {
            Ok(chart) => chart,
            Err(error) => {
                assert!(
                    error.path.starts_with("data"),
                    "{name}: refused without a data path: {error}"
                );
                eprintln!("{name}: refused: {error}");
                continue;
            }
        };
        let theme = chart.theme(None);
        let mut largest = 0;
        for (width, height) in SIZES {
            let svg = chart.to_svg(width, height, &theme);
            largest = largest.max(svg.len());
        }
        let elapsed = started.elapsed();
        eprintln!(
            "{name}: {} bytes in, largest SVG {largest} bytes, {elapsed:?}",
            text.len()
        );
        if largest > MAX_SVG {
            failures.push(format!("{name}: {largest} bytes of SVG"));
        }
        if elapsed > MAX_TIME {
            failures.push(format!("{name}: {elapsed:?}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Every card type can be forced on any data through the public model,
/// which is how a fuzzer reaches every reader and drawer from one input.
#[test]
fn every_kind_can_be_forced() {
    let text = fill_n(&head("", "["), "]}", 500, |i| {
        format!("{{\"x\":\"c{i}\",\"y\":{}}}", i % 97)
    });
    let data = VisualizationData::from_json(&text).unwrap();
    let mut drawn = 0;
    for kind in CardKind::ALL {
        let mut forced = data.clone();
        forced.config.kind = Some(kind);
        let through_config = Chart::from_data(&forced).map(|c| (c.kind, c.card));
        let chart = Chart::from_data_as(&data, kind);
        // Compared as Debug text: missing values are NaN, and NaN != NaN.
        let same = format!("{:?}", chart.as_ref().map(|c| (c.kind, &c.card)))
            == format!("{:?}", through_config.as_ref().map(|(k, c)| (*k, c)));
        assert!(same, "{kind}: from_data_as and viz_component_type disagree");
        if let Ok(chart) = chart {
            assert_eq!(chart.kind, kind);
            let svg = chart.to_svg(400, 360, &chart.theme(None));
            assert!(svg.len() <= MAX_SVG, "{kind}");
            drawn += 1;
        }
    }
    // The three timeseries types, scatter and timeline refuse labels for
    // dates, numbers and items, and map points without latitude and
    // longitude; the thirteen others draw them (a bubble map reads the
    // labels as region codes).
    assert_eq!(drawn, 13);
}
