//! The host's one admission lives in zdr-limits (at the bottom, shared with
//! the API and the file readers); the embed names it here.

pub use zdr_limits::admission::{
    Admission, Busy, DrawLimit, Lanes, Occupancy, Ticket, MEMORY_PER_BODY_BYTE, MEMORY_PER_DRAW,
};
pub use zdr_limits::{AbandonOnDrop, Stop, Stopped};

impl From<Busy> for crate::error::AppError {
    fn from(_: Busy) -> Self {
        crate::error::AppError::Busy
    }
}
