//! Drawing speed: time series of 1k, 100k and 1M points and a bar chart of
//! 2,000 categories, each drawn to an 800x500 SVG (layout, reduction and
//! SVG text included); laid out as a scene with the hit map for tooltips
//! and replayed onto a plotters backend (the widget's way); the scene
//! alone; and the reduction alone.
//! Run with `cargo bench -p zdr-chart --bench draw`.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use plotters::prelude::{IntoDrawingArea, SVGBackend};
use zdr_chart::model::{
    Card, CardKind, Categorical, DatePrecision, NamedValues, Series, VizConfig,
};
use zdr_chart::reduce::min_max_columns;
use zdr_chart::{Chart, HitMap, Theme};

fn config(title: &str) -> VizConfig {
    VizConfig {
        title: title.to_string(),
        y_label: Some("Value".to_string()),
        ..VizConfig::default()
    }
}

/// A noisy random walk, one point a minute from 2024-01-01.
fn walk(n: usize) -> Series {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut y = 1_000.0;
    let mut xs = Vec::with_capacity(n);
    let mut ys = Vec::with_capacity(n);
    for i in 0..n {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        y += (state % 2001) as f64 / 1000.0 - 1.0;
        xs.push(1_704_067_200.0 + 60.0 * i as f64);
        ys.push(y);
    }
    Series {
        name: "walk".to_string(),
        xs,
        ys,
        given: n,
    }
}

fn timeseries(n: usize) -> Chart {
    Chart {
        config: config("Random walk"),
        kind: CardKind::Timeseries,
        card: Card::Timeseries {
            series: vec![walk(n)],
            precision: DatePrecision::Time,
        },
    }
}

fn bars(n: usize) -> Chart {
    Chart {
        config: config("Many categories"),
        kind: CardKind::Bar,
        card: Card::Categorical(Categorical {
            kind: CardKind::Bar,
            categories: (0..n).map(|i| format!("Category {i}")).collect(),
            series: vec![NamedValues {
                name: String::new(),
                values: (0..n).map(|i| ((i * 7919) % 1000) as f64).collect(),
            }],
        }),
    }
}

fn draw(c: &mut Criterion) {
    let mut group = c.benchmark_group("timeseries_svg_800x500");
    group.sample_size(20);
    for n in [1_000usize, 100_000, 1_000_000] {
        let chart = timeseries(n);
        let theme = chart.theme(None);
        group.bench_with_input(BenchmarkId::from_parameter(n), &chart, |b, chart| {
            b.iter(|| black_box(chart.to_svg(800, 500, &theme)))
        });
    }
    group.finish();

    // Layout alone: the scene, no painter.
    let mut group = c.benchmark_group("timeseries_scene_800x500");
    group.sample_size(20);
    for n in [1_000usize, 100_000, 1_000_000] {
        let chart = timeseries(n);
        let theme = chart.theme(None);
        group.bench_with_input(BenchmarkId::from_parameter(n), &chart, |b, chart| {
            b.iter(|| black_box(chart.scene(800.0, 500.0, &theme, false)))
        });
    }
    group.finish();

    // The widget's drawing: the scene with the hit map a tooltip needs,
    // replayed onto a plotters backend.
    let mut group = c.benchmark_group("timeseries_mapped_svg_800x500");
    group.sample_size(20);
    for n in [1_000usize, 100_000, 1_000_000] {
        let chart = timeseries(n);
        let theme = chart.theme(None);
        group.bench_with_input(BenchmarkId::from_parameter(n), &chart, |b, chart| {
            b.iter(|| black_box(mapped(chart, &theme)))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("reduce_min_max_760_columns");
    group.sample_size(20);
    for n in [1_000usize, 100_000, 1_000_000] {
        let s = walk(n);
        let (lo, hi) = (s.xs[0], s.xs[n - 1]);
        group.bench_with_input(BenchmarkId::from_parameter(n), &s, |b, s| {
            b.iter(|| black_box(min_max_columns(&s.xs, &s.ys, lo, hi, 760)))
        });
    }
    group.finish();

    let chart = bars(2_000);
    let theme = chart.theme(None);
    c.bench_function("bar_2000_categories_svg_800x500", |b| {
        b.iter(|| black_box(chart.to_svg(800, 500, &theme)))
    });
    c.bench_function("bar_2000_categories_mapped_svg_800x500", |b| {
        b.iter(|| black_box(mapped(&chart, &theme)))
    });
}

/// `draw_mapped` replayed onto plotters' 800x500 SVG backend: what the
/// widget does on its canvas, with a backend that runs natively.
fn mapped(chart: &Chart, theme: &Theme) -> Option<(String, HitMap)> {
    let mut svg = String::new();
    let map = {
        let area = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
        let map = chart.draw_mapped(&area, theme, 1.0).ok()?;
        area.present().ok()?;
        map
    };
    Some((svg, map))
}

criterion_group!(benches, draw);
criterion_main!(benches);
