//! The API's heavy work (reading a file, making cards, searching, drawing
//! an image) goes through the host's one admission, the embed's
//! ([`zdr_limits::admission::Lanes`]): a slot, its share of the memory budget, a
//! place in a short queue, and the deadline (`--draw-timeout`). A busy host
//! answers 503 with Retry-After at once instead of piling work up; work
//! whose client has gone, or whose deadline has passed, stops at its next
//! step. Each kind of work reckons its memory before it starts.

use std::sync::Arc;
use std::time::Instant;

use super::table::{TableError, MAX_UNPACKED};
use super::{Api, ApiError};
use zdr_limits::admission::{MEMORY_PER_BODY_BYTE, MEMORY_PER_DRAW};
use zdr_limits::{AbandonOnDrop, Stop, Stopped};

/// What reading a file takes beyond the file itself, as docs/service-api.md
/// "Reading files" measures it: a table at its bounds and the reader's own
/// buffers (a workbook's shared strings, a Parquet page).
pub const READ_MEMORY: usize = MAX_UNPACKED;

/// What a table read from CSV text of `bytes` and made into cards takes:
/// a cell costs about 60 bytes beside its text, and the table's bounds cap
/// it (docs/service-api.md "Reading files").
pub fn table_memory(bytes: usize) -> usize {
    const FIXED: usize = 8 << 20;
    const MAX: usize = 64 << 20;
    FIXED
        .saturating_add(bytes.saturating_mul(64))
        .min(MAX)
        .saturating_add(bytes.min(MAX))
}

/// What drawing a stored card takes (the embed's reckoning of a draw).
pub fn draw_memory(visualization_data: usize) -> usize {
    MEMORY_PER_DRAW.saturating_add(visualization_data.saturating_mul(MEMORY_PER_BODY_BYTE))
}

/// Runs `work` on a blocking thread once the admission lets it, with
/// `memory` bytes reserved; the answer, or why there is none.
pub(super) async fn heavy<T: Send + 'static>(
    api: &Arc<Api>,
    memory: usize,
    work: impl FnOnce(&Stop) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let timeout = api.lanes.deadline;
    let deadline = Instant::now() + timeout;
    let ticket = tokio::time::timeout_at(deadline.into(), api.lanes.large.admit(memory))
        .await
        .map_err(|_| ApiError::Deadline(timeout.as_millis()))?
        .map_err(|_busy| ApiError::Busy)?;
    let (_abandon, stop) = AbandonOnDrop::new(deadline);
    // The ticket goes with the thread: it is free again only when the work
    // has really stopped, not when this handler gave up on it.
    let running = tokio::task::spawn_blocking(move || {
        let _ticket = ticket;
        work(&stop)
    });
    match tokio::time::timeout_at(deadline.into(), running).await {
        Err(_) => Err(ApiError::Deadline(timeout.as_millis())),
        Ok(Err(join)) => Err(ApiError::internal(format!("heavy work failed: {join}"))),
        // Work that saw the deadline at one of its steps says so without it.
        Ok(Ok(Err(ApiError::Deadline(_)))) => Err(ApiError::Deadline(timeout.as_millis())),
        Ok(Ok(answer)) => answer,
    }
}

impl ApiError {
    /// A file that could not be read: a bound passed or a malformed file
    /// (422, naming the file), or a read that was stopped.
    pub fn unreadable(name: &str, error: TableError) -> ApiError {
        match error {
            TableError::Stopped(Stopped::Deadline | Stopped::Abandoned) => ApiError::Deadline(0),
            other => ApiError::Unreadable(format!("{name}: {other}")),
        }
    }
}
