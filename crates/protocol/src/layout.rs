//! Sizing words both modules must agree on.

/// The `height` value that lets the card's width decide its height.
pub const AUTO_HEIGHT: &str = "auto";

/// The shape of an auto-height card: the proportions of the usual landscape
/// frame. The widget gives a postMessage frame this shape before the shell
/// reports its height, so the first guess is right.
pub const AUTO_ASPECT_RATIO: &str = "8 / 5";
