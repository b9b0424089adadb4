//! How heavy work on a blocking thread (a draw, a file read) is told to
//! stop: the handler that waits for it is gone, or its deadline passed.
//! The embed, the service API and the file readers (zdr-table) share it;
//! it links nothing but std, so a reader links no web framework or runtime.
//! The lanes that admit the work ([`admission`]) are behind the
//! `admission` feature: the embed and the API turn it on, the readers not.

#[cfg(feature = "admission")]
pub mod admission;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Why a draw stopped before it was done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// The handler is gone: the client left or the deadline passed.
    Abandoned,
    Deadline,
}

/// What heavy work on a blocking thread (a draw, a file read) checks
/// between its steps.
#[derive(Debug, Clone)]
pub struct Stop {
    abandoned: Arc<AtomicBool>,
    deadline: Option<Instant>,
}

impl Stop {
    /// For work that no request waits on (the built-in datasets, the fuzz
    /// target): it runs to its end.
    pub fn never() -> Stop {
        Stop {
            abandoned: Arc::new(AtomicBool::new(false)),
            deadline: None,
        }
    }

    pub fn check(&self) -> Result<(), Stopped> {
        if self.abandoned.load(Ordering::Relaxed) {
            Err(Stopped::Abandoned)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Err(Stopped::Deadline)
        } else {
            Ok(())
        }
    }
}

/// Held by the handler; dropping it (the handler's future is dropped when
/// the client disconnects, or it gives up at the deadline) tells the draw
/// to stop at its next step.
#[derive(Debug)]
pub struct AbandonOnDrop(Arc<AtomicBool>);

impl AbandonOnDrop {
    pub fn new(deadline: Instant) -> (AbandonOnDrop, Stop) {
        let flag = Arc::new(AtomicBool::new(false));
        let stop = Stop {
            abandoned: flag.clone(),
            deadline: Some(deadline),
        };
        (AbandonOnDrop(flag), stop)
    }
}

impl Drop for AbandonOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dropping_the_guard_stops_the_draw() {
        let (guard, stop) = AbandonOnDrop::new(Instant::now() + Duration::from_secs(60));
        assert_eq!(stop.check(), Ok(()));
        drop(guard);
        assert_eq!(stop.check(), Err(Stopped::Abandoned));
        let (_guard, stop) = AbandonOnDrop::new(Instant::now());
        assert_eq!(stop.check(), Err(Stopped::Deadline));
    }
}
