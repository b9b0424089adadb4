//! `POST /embed/{card_id}/`: the form field in, the chart page out, in
//! bounded time and memory; and the other methods of the embed addresses.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Body;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, RawQuery, Request};
use axum::http::StatusCode;
use axum::Extension;
use zdr_chart::paint::svg::fluid::{self, Written};
use zdr_chart::paint::svg::TextStyles;
use zdr_chart::Chart;

use crate::chart_page::{chart_page, layouts, sized_layouts, FrameSize};
use crate::error::AppError;
use crate::form::{read_body, BodyRules, FormError, Posted};
use crate::html::Page;
pub use crate::ids::is_card_id as valid_card_id;
use crate::limits::{AbandonOnDrop, Lanes, Stop, Stopped};
use crate::request_log::RequestId;

/// The card id from the address; a segment that does not decode to UTF-8
/// (`%FF`) becomes "", which is no card id, so it gets the 404 page like any
/// other bad id rather than the router's plain-text 400.
pub fn card_id_or_empty(card_id: Result<Path<String>, PathRejection>) -> String {
    card_id.map(|Path(id)| id).unwrap_or_default()
}

pub fn dark_mode(query: Option<&str>) -> Result<Option<bool>, AppError> {
    let mut dark = None;
    for (name, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        if name == "dark_mode" {
            dark = Some(match value.as_ref() {
                "true" => true,
                "false" => false,
                _ => return Err(AppError::DarkMode),
            });
        }
    }
    Ok(dark)
}

/// Why a draw on its blocking thread ended without a page.
enum Failure {
    Form(FormError),
    Data(zdr_chart::model::DataError),
    Stopped(Stopped),
}

/// Reads, checks and draws; all of it CPU work, done off the async workers.
/// Between steps it stops if nobody waits for the page any more.
fn draw(posted: Posted, dark: Option<bool>, stop: &Stop) -> Result<Page, Failure> {
    stop.check().map_err(Failure::Stopped)?;
    let frame = posted.frame_size().and_then(FrameSize::parse);
    let text = posted.field().map_err(Failure::Form)?;
    stop.check().map_err(Failure::Stopped)?;
    let chart = Chart::from_json(&text).map_err(Failure::Data)?;
    drop(text);
    let theme = chart.theme(dark);
    let layouts = match frame {
        Some(frame) => sized_layouts(chart.fit(), frame).to_vec(),
        None => layouts(chart.fit()).to_vec(),
    };
    let mut written = Vec::with_capacity(layouts.len());
    let mut styles = TextStyles::default();
    for layout in layouts {
        stop.check().map_err(Failure::Stopped)?;
        let scene = chart.scene(layout.width, layout.height, &theme, false);
        // The first layout draws shapes both share; the next refers to them.
        let shared = written
            .first()
            .and_then(|(_, w): &(_, Written)| w.shapes.as_ref());
        let layout_written = fluid::write(&scene, &mut styles, shared);
        written.push((layout, layout_written));
    }
    Ok(chart_page(
        &chart.config.title,
        theme.background,
        &written,
        &styles,
    ))
}

pub async fn post(
    Extension(lanes): Extension<Arc<Lanes>>,
    Extension(id): Extension<RequestId>,
    card_id: Result<Path<String>, PathRejection>,
    RawQuery(query): RawQuery,
    request: Request,
) -> Result<Page, AppError> {
    let card_id = card_id_or_empty(card_id);
    if !valid_card_id(&card_id) {
        return Err(AppError::CardId);
    }
    let dark = dark_mode(query.as_deref())?;
    let (parts, body): (_, Body) = request.into_parts();
    let rules = BodyRules {
        limit: lanes.body_limit,
        timeout: lanes.body_timeout,
        free: lanes.small_post,
        memory: lanes.bodies.clone(),
    };
    let posted = read_body(&parts.headers, body, &rules).await?;

    let started = Instant::now();
    let deadline = started + lanes.deadline;
    let lane = lanes.for_post(posted.size());
    let ticket = tokio::time::timeout_at(deadline.into(), lane.enter(posted.size()))
        .await
        .map_err(|_| AppError::Deadline(lanes.deadline.as_millis()))??;
    let (_abandon, stop) = AbandonOnDrop::new(deadline);
    // The slot goes with the thread: it is free again only when the drawing
    // has really stopped, not when this handler gave up on it.
    let drawing = tokio::task::spawn_blocking(move || {
        let _ticket = ticket;
        draw(posted, dark, &stop)
    });
    let finished = tokio::time::timeout_at(deadline.into(), drawing).await;
    settle(finished.ok(), &id, lanes.deadline.as_millis())
}

/// The answer to a draw that finished (`Some`) or ran out of time. Causes
/// that are the host's own go to the log under the request id, and the page
/// shows only the id.
fn settle(
    finished: Option<Result<Result<Page, Failure>, tokio::task::JoinError>>,
    id: &RequestId,
    timeout_ms: u128,
) -> Result<Page, AppError> {
    match finished {
        Some(Ok(Ok(page))) => Ok(page),
        Some(Ok(Err(Failure::Data(error)))) => Err(AppError::Data(error)),
        Some(Ok(Err(Failure::Form(error)))) => Err(AppError::Form(error)),
        // Abandoned: nobody reads this answer; the handler is being dropped.
        None | Some(Ok(Err(Failure::Stopped(Stopped::Deadline | Stopped::Abandoned)))) => {
            Err(AppError::Deadline(timeout_ms))
        }
        Some(Err(join)) => {
            let what = if join.is_panic() {
                "panicked"
            } else {
                "was cancelled"
            };
            tracing::error!("{} the drawing task {what}", id.0);
            Err(AppError::Draw(id.0.clone()))
        }
    }
}

/// `HEAD` on an embed address: the widget's auto mode asks whether the
/// service is there before trusting the frame's `load` event (which fires for
/// the browser's own error page too). A 2xx keeps the page's console clean.
pub async fn probe() -> StatusCode {
    StatusCode::NO_CONTENT
}

/// Any other method on an embed address.
pub async fn method_not_allowed() -> AppError {
    AppError::MethodNotAllowed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dark_mode_is_true_false_or_absent() {
        assert_eq!(dark_mode(None).ok(), Some(None));
        assert_eq!(dark_mode(Some("dark_mode=true")).ok(), Some(Some(true)));
        assert_eq!(
            dark_mode(Some("x=1&dark_mode=false")).ok(),
            Some(Some(false))
        );
        assert!(dark_mode(Some("dark_mode=yes")).is_err());
    }

    async fn page_of(error: AppError) -> (StatusCode, String) {
        use axum::response::IntoResponse;
        use http_body_util::BodyExt;
        let response = error.into_response();
        let status = response.status();
        let body = response.into_body().collect().await.map(|b| b.to_bytes());
        (
            status,
            String::from_utf8_lossy(&body.unwrap_or_default()).into_owned(),
        )
    }

    #[tokio::test]
    // The drawing task must really panic for its JoinError to be real.
    #[allow(clippy::panic)]
    async fn a_panicked_draw_shows_only_the_request_id() {
        let id = RequestId("5eed-42".into());
        let panicked = tokio::task::spawn_blocking(|| -> Result<Page, Failure> {
            panic!("Backend secret: card data in a panic message")
        })
        .await;
        let panicked = settle(Some(panicked), &id, 1);
        for result in [panicked] {
            let Err(error) = result else {
                panic!("a page for a failed draw");
            };
            let (status, page) = page_of(error).await;
            assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
            assert!(page.contains("The chart could not be drawn"), "{page}");
            assert!(page.contains("request id 5eed-42"), "{page}");
            assert!(
                !page.contains("Backend") && !page.contains("secret"),
                "{page}"
            );
            assert!(
                !page.contains("card data") && !page.contains("panic"),
                "{page}"
            );
        }
        let (status, _) = page_of(settle(None, &id, 10).err().unwrap_or(AppError::Busy)).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    }

    #[test]
    // A failed expectation in a test is a test failure.
    #[allow(clippy::panic)]
    fn an_abandoned_draw_stops_before_drawing() {
        let (abandon, stop) =
            AbandonOnDrop::new(Instant::now() + std::time::Duration::from_secs(60));
        drop(abandon);
        let Ok(card) = crate::form::posted(
            "application/x-www-form-urlencoded",
            b"visualization_data=%7B%7D",
        ) else {
            panic!("a urlencoded body");
        };
        assert!(matches!(
            draw(card, None, &stop),
            Err(Failure::Stopped(Stopped::Abandoned))
        ));
    }
}
