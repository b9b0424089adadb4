//! `/metrics`, in Prometheus's text format: requests by route, method and
//! status, their latency, the admission's lanes as they are now, and the
//! requests the host's limits turned away, by reason. A route is its
//! template (`/embed/{card_id}/`), or `other` for the demo, the package
//! and anything unrouted: never a key, a path parameter, a query or data.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use prometheus_client::encoding::text::encode;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

use zdr_embed_page::error::Refusal;
use zdr_embed_page::limits::{DrawLimit, Lanes};

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: String,
    method: &'static str,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ReasonLabels {
    reason: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct LaneLabels {
    lane: &'static str,
}

/// Latency buckets in seconds: a small card's page to a slow file read.
fn latency() -> Histogram {
    Histogram::new([
        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
    ])
}

pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    seconds: Family<RouteLabels, Histogram, fn() -> Histogram>,
    refusals: Family<ReasonLabels, Counter>,
    slots: Family<LaneLabels, Gauge>,
    running: Family<LaneLabels, Gauge>,
    waiting: Family<LaneLabels, Gauge>,
    memory: Family<LaneLabels, Gauge>,
    lanes: Arc<Lanes>,
}

impl Metrics {
    pub fn new(lanes: Arc<Lanes>) -> Metrics {
        let mut registry = Registry::with_prefix("zdr");
        let requests = Family::<RequestLabels, Counter>::default();
        let seconds = Family::<RouteLabels, Histogram, fn() -> Histogram>::new_with_constructor(
            latency as fn() -> Histogram,
        );
        let refusals = Family::<ReasonLabels, Counter>::default();
        let slots = Family::<LaneLabels, Gauge>::default();
        let running = Family::<LaneLabels, Gauge>::default();
        let waiting = Family::<LaneLabels, Gauge>::default();
        let memory = Family::<LaneLabels, Gauge>::default();
        registry.register(
            "http_requests",
            "Requests answered, by route template, method and status",
            requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "Time from a request's head to its answer's head, by route template",
            seconds.clone(),
        );
        registry.register(
            "refusals",
            "Requests turned away by the host's limits, by reason (too_large, body_timeout, busy, deadline, rate_limited)",
            refusals.clone(),
        );
        registry.register("lane_slots", "Work a lane runs at once", slots.clone());
        registry.register("lane_running", "Work running in a lane", running.clone());
        registry.register(
            "lane_waiting",
            "Work waiting for a lane's slot",
            waiting.clone(),
        );
        registry.register(
            "lane_memory_bytes",
            "Memory reserved by the work running in a lane",
            memory.clone(),
        );
        Metrics {
            registry,
            requests,
            seconds,
            refusals,
            slots,
            running,
            waiting,
            memory,
            lanes,
        }
    }

    fn lane(&self, lane: &'static str, limit: &DrawLimit) {
        let now = limit.occupancy();
        let labels = LaneLabels { lane };
        let set = |family: &Family<LaneLabels, Gauge>, value: usize| {
            family
                .get_or_create(&labels)
                .set(i64::try_from(value).unwrap_or(i64::MAX));
        };
        set(&self.slots, now.slots);
        set(&self.running, now.running);
        set(&self.waiting, now.waiting);
        set(&self.memory, now.memory_bytes);
    }

    /// The text a scrape reads.
    pub fn text(&self) -> String {
        self.lane("small", &self.lanes.small);
        self.lane("large", &self.lanes.large);
        let mut text = String::new();
        if encode(&mut text, &self.registry).is_err() {
            text.clear();
        }
        text
    }
}

/// A method as a label: the ones HTTP names, and `other`, so that a
/// client cannot make a label of its own.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

/// Counts and times every request.
pub async fn record(State(metrics): State<Arc<Metrics>>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "other".to_owned(), |m| m.as_str().to_owned());
    let method = method_label(request.method());
    let response = next.run(request).await;
    metrics
        .seconds
        .get_or_create(&RouteLabels {
            route: route.clone(),
        })
        .observe(started.elapsed().as_secs_f64());
    metrics
        .requests
        .get_or_create(&RequestLabels {
            route,
            method,
            status: response.status().as_u16(),
        })
        .inc();
    if let Some(Refusal(reason)) = response.extensions().get::<Refusal>() {
        metrics
            .refusals
            .get_or_create(&ReasonLabels { reason })
            .inc();
    }
    response
}

pub async fn page(State(metrics): State<Arc<Metrics>>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        metrics.text(),
    )
        .into_response()
}
