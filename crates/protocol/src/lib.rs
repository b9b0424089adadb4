//! What the two WebAssembly modules of zdr-embed share, so that they cannot
//! drift apart: the postMessage protocol between the widget (service module)
//! and the shell page (engine module), the origin rule the shell applies, the
//! panic guard every exported function starts with, and the wording of values
//! in error messages. Small on purpose: the service module links all of it.

pub mod code;
pub mod failure;
pub mod layout;
pub mod message;
pub mod origin;
pub mod text;
