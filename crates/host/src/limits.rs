//! Bounded drawing: a few draws at once (about one per core), a short
//! queue, and a way to stop a draw that nobody waits for any more.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::AppError;

/// The drawing slots of the service and the posts waiting for one.
#[derive(Debug)]
pub struct DrawLimit {
    slots: Arc<Semaphore>,
    waiting: AtomicUsize,
    queue: usize,
}

impl DrawLimit {
    pub fn new(concurrent: u32, queue: u32) -> DrawLimit {
        DrawLimit {
            slots: Arc::new(Semaphore::new(concurrent.max(1) as usize)),
            waiting: AtomicUsize::new(0),
            queue: queue as usize,
        }
    }

    /// A slot, at once or after waiting in the queue; [`AppError::Busy`]
    /// when the queue is full. The wait ends when the returned future is
    /// dropped (the client left, or the deadline passed).
    pub async fn enter(&self) -> Result<OwnedSemaphorePermit, AppError> {
        if let Ok(slot) = self.slots.clone().try_acquire_owned() {
            return Ok(slot);
        }
        let place = Waiting::join(&self.waiting);
        if place.ahead >= self.queue {
            return Err(AppError::Busy);
        }
        self.slots
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| AppError::Busy)
    }
}

/// A place in the queue, given back on drop.
struct Waiting<'a> {
    count: &'a AtomicUsize,
    ahead: usize,
}

impl<'a> Waiting<'a> {
    fn join(count: &'a AtomicUsize) -> Waiting<'a> {
        let ahead = count.fetch_add(1, Ordering::SeqCst);
        Waiting { count, ahead }
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.count.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Why a draw stopped before it was done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// The handler is gone: the client left or the deadline passed.
    Abandoned,
    Deadline,
}

/// What a draw on a blocking thread checks between its steps.
#[derive(Debug, Clone)]
pub struct Stop {
    abandoned: Arc<AtomicBool>,
    deadline: Instant,
}

impl Stop {
    pub fn check(&self) -> Result<(), Stopped> {
        if self.abandoned.load(Ordering::Relaxed) {
            Err(Stopped::Abandoned)
        } else if Instant::now() >= self.deadline {
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
            deadline,
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

    #[tokio::test]
    async fn a_full_queue_is_busy_at_once() {
        let limit = Arc::new(DrawLimit::new(1, 1));
        let first = limit.enter().await;
        assert!(first.is_ok());
        let waiter = {
            let limit = limit.clone();
            tokio::spawn(async move { limit.enter().await.is_ok() })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(matches!(limit.enter().await, Err(AppError::Busy)));
        drop(first);
        assert!(matches!(waiter.await, Ok(true)));
        // The queue place was given back.
        assert_eq!(limit.waiting.load(Ordering::SeqCst), 0);
    }

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
