//! The `parent_origin` of the postMessage shell: the rule both the host and
//! the shell apply lives in `zdr_protocol::origin`.

pub use zdr_protocol::origin::{check, OriginError};
