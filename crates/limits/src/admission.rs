//! The host's one admission: a few draws at once (about one per core), a
//! short queue, a memory budget and a deadline, shared by the embed and the
//! service API. Behind the `admission` feature (tokio's semaphores), so the
//! file readers, which need only [`crate::Stop`], link no runtime.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The queue is full (or the admission is closing): answer 503 with
/// Retry-After rather than wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the host is drawing and reading as much as it can; retry in a moment")]
pub struct Busy;

/// What the operator sets (the host's flags): the admission's sizes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Admission {
    /// Draws at once in each lane.
    pub concurrent: u32,
    /// Work that may wait for a slot in each lane.
    pub queue: u32,
    /// Bytes the draws of the large lane may take together.
    pub draw_memory: usize,
    /// Bytes of bodies beyond their first `small_post` held at once.
    pub body_memory: usize,
    /// Posts up to this many bytes are drawn in the small lane.
    pub small_post: usize,
    /// The largest body read (413 beyond it).
    pub body_limit: usize,
    /// The time a client has to send a whole body.
    pub body_timeout: Duration,
    pub deadline: Duration,
}

/// How much memory reading and drawing a card takes, per byte of its post,
/// measured on the release build: 17 to 27 (a 9.7 MB scatter post peaks at
/// about 200 MB while it is parsed into a JSON tree and drawn; a table of
/// 16,000 distinct keys at 27 times its post).
pub const MEMORY_PER_BODY_BYTE: usize = 24;

/// What any draw takes besides: drawing the marks the chart's caps allow,
/// four times (a 76 KB scatter post of 2,000 points takes about 33 MB).
pub const MEMORY_PER_DRAW: usize = 32 * 1024 * 1024;

/// Memory is reserved in units of this many bytes.
const UNIT: usize = 64 * 1024;

/// The drawing slots of one lane and the posts waiting for one, and the
/// memory all lanes draw from.
#[derive(Debug)]
pub struct DrawLimit {
    slots: Arc<Semaphore>,
    concurrent: usize,
    memory: Option<Arc<Semaphore>>,
    memory_units: u32,
    waiting: AtomicUsize,
    queue: usize,
}

/// A lane's slots, those taken, the work waiting for one, and the memory
/// reserved by the work running.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Occupancy {
    pub slots: usize,
    pub running: usize,
    pub waiting: usize,
    pub memory_bytes: usize,
}

/// A drawing slot and the memory reserved for the draw; both are given back
/// when it is dropped.
#[derive(Debug)]
pub struct Ticket {
    _slot: OwnedSemaphorePermit,
    _memory: Option<OwnedSemaphorePermit>,
}

impl DrawLimit {
    /// `memory`: the bytes all draws of this lane may take together, or
    /// `None` for a lane whose posts are small enough that its slots bound it.
    pub fn new(concurrent: u32, queue: u32, memory: Option<usize>) -> DrawLimit {
        let memory_units = memory.map_or(0, |bytes| {
            (bytes / UNIT).clamp(1, u32::MAX as usize >> 4) as u32
        });
        DrawLimit {
            slots: Arc::new(Semaphore::new(concurrent.max(1) as usize)),
            concurrent: concurrent.max(1) as usize,
            memory: memory.map(|_| Arc::new(Semaphore::new(memory_units as usize))),
            memory_units,
            waiting: AtomicUsize::new(0),
            queue: queue as usize,
        }
    }

    /// What the lane holds now, for `/metrics`.
    pub fn occupancy(&self) -> Occupancy {
        Occupancy {
            slots: self.concurrent,
            running: self
                .concurrent
                .saturating_sub(self.slots.available_permits()),
            waiting: self.waiting.load(Ordering::Relaxed),
            memory_bytes: self.memory.as_ref().map_or(0, |memory| {
                (self.memory_units as usize).saturating_sub(memory.available_permits()) * UNIT
            }),
        }
    }

    /// A slot and the memory for a post of `body` bytes, at once or after
    /// waiting in the queue; [`Busy`] when the queue is full. The
    /// wait ends when the returned future is dropped (the client left, or
    /// the deadline passed).
    pub async fn enter(&self, body: usize) -> Result<Ticket, Busy> {
        self.admit(
            body.saturating_mul(MEMORY_PER_BODY_BYTE)
                .saturating_add(MEMORY_PER_DRAW),
        )
        .await
    }

    /// A slot and `memory` bytes for any heavy work (the service API's file
    /// reads, cards and images reckon their own), as [`DrawLimit::enter`].
    pub async fn admit(&self, memory: usize) -> Result<Ticket, Busy> {
        let units = memory
            .div_ceil(UNIT)
            .clamp(1, self.memory_units.max(1) as usize) as u32;
        if let Ok(slot) = self.slots.clone().try_acquire_owned() {
            match &self.memory {
                None => {
                    return Ok(Ticket {
                        _slot: slot,
                        _memory: None,
                    })
                }
                Some(memory) => {
                    if let Ok(reserved) = memory.clone().try_acquire_many_owned(units) {
                        return Ok(Ticket {
                            _slot: slot,
                            _memory: Some(reserved),
                        });
                    }
                }
            }
        }
        let place = Waiting::join(&self.waiting);
        if place.ahead >= self.queue {
            return Err(Busy);
        }
        // Memory first: a post that waits for memory holds no slot, so the
        // small posts of this lane keep being drawn meanwhile.
        let reserved = match &self.memory {
            None => None,
            Some(memory) => Some(
                memory
                    .clone()
                    .acquire_many_owned(units)
                    .await
                    .map_err(|_| Busy)?,
            ),
        };
        let slot = self.slots.clone().acquire_owned().await.map_err(|_| Busy)?;
        Ok(Ticket {
            _slot: slot,
            _memory: reserved,
        })
    }
}

/// Two lanes: small posts (most cards) are drawn in a lane of their own,
/// so that a few large or expensive posts cannot hold them back. Drawing
/// time and memory grow linearly with the post, so the size of the post
/// tells the lanes apart before any work is done.
#[derive(Debug)]
pub struct Lanes {
    pub small_post: usize,
    pub small: DrawLimit,
    pub large: DrawLimit,
    /// The bytes of bodies beyond their first `small_post` that may be held
    /// at once, while they are read and wait for their lane: without it,
    /// every connection could hold a body at the limit (512 x 4 MiB).
    pub bodies: Arc<Semaphore>,
    pub body_limit: usize,
    pub body_timeout: Duration,
    /// The longest a post or a piece of API work may wait for its slot and
    /// run; then it is answered 503 and told to stop ([`crate::Stop`]).
    pub deadline: Duration,
}

impl Lanes {
    pub fn new(settings: &Admission) -> Lanes {
        let small_memory = settings.small_post.saturating_mul(MEMORY_PER_BODY_BYTE);
        Lanes {
            small_post: settings.small_post,
            small: DrawLimit::new(settings.concurrent, settings.queue, None),
            large: DrawLimit::new(
                settings.concurrent,
                settings.queue,
                Some(settings.draw_memory.max(small_memory)),
            ),
            bodies: Arc::new(Semaphore::new(
                settings.body_memory.min(Semaphore::MAX_PERMITS),
            )),
            body_limit: settings.body_limit,
            body_timeout: settings.body_timeout,
            deadline: settings.deadline,
        }
    }

    pub fn for_post(&self, bytes: usize) -> &DrawLimit {
        if bytes <= self.small_post {
            &self.small
        } else {
            &self.large
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_full_queue_is_busy_at_once() {
        let limit = Arc::new(DrawLimit::new(1, 1, None));
        let first = limit.enter(10).await;
        assert!(first.is_ok());
        let waiter = {
            let limit = limit.clone();
            tokio::spawn(async move { limit.enter(10).await.is_ok() })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(matches!(limit.enter(10).await, Err(Busy)));
        drop(first);
        assert!(matches!(waiter.await, Ok(true)));
        // The queue place was given back.
        assert_eq!(limit.waiting.load(Ordering::SeqCst), 0);
    }

    #[tokio::test]
    async fn large_posts_wait_for_memory_without_holding_a_slot() {
        // Room for one 1 MB post (24 MB and the draw), two slots.
        let limit = Arc::new(DrawLimit::new(
            2,
            4,
            Some(24 * 1024 * 1024 + MEMORY_PER_DRAW),
        ));
        let big = limit.enter(1024 * 1024).await;
        assert!(big.is_ok());
        let second = {
            let limit = limit.clone();
            tokio::spawn(async move { limit.enter(1024 * 1024).await.is_ok() })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(
            !second.is_finished(),
            "two large posts drawn beyond the memory"
        );
        // The waiting large post holds no slot; memory for a small one is
        // not there either, so it waits too, in order.
        drop(big);
        assert!(matches!(second.await, Ok(true)));
        assert!(limit.enter(1000).await.is_ok());
    }
}
