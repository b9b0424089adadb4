//! The postMessage protocol between the widget (in the page) and the
//! service's shell page (in the iframe), version 1. Both ends are in this
//! crate, so they cannot drift apart; docs/postmessage-protocol.md describes
//! it for other implementations.
//!
//! Every message is a plain object `{ type: "zdr:…", version: 1, … }`. Anything
//! else (other libraries' messages, other versions, wrong field types) decodes
//! to `None` and is ignored: a page carries messages from many senders.

use js_sys::{Object, Reflect};
use wasm_bindgen::JsValue;

/// Bumped when a message changes meaning; both ends refuse other versions.
pub const VERSION: u32 = 1;

pub const READY: &str = "zdr:ready";
pub const VIZDATA: &str = "zdr:vizdata";
pub const RECEIVED: &str = "zdr:vizdata:received";
pub const ERROR: &str = "zdr:vizdata:error";
pub const RESIZE: &str = "zdr:resize";

/// The longest error message the widget passes on: enough for a JSON path
/// and its problem, not a page of text from a misbehaving service.
pub const MAX_MESSAGE_CHARS: usize = 500;

/// From the widget to the shell.
#[derive(Debug, Clone, PartialEq)]
pub enum ToShell {
    /// The card's `visualization_data` as JSON text, exactly the form mode's
    /// field value; `id` increases with every send and is echoed back.
    VizData { id: u32, json: String },
}

/// From the shell to the widget.
#[derive(Debug, Clone, PartialEq)]
pub enum ToWidget {
    /// The shell is listening. Sent once per page load of the shell, so a
    /// second one means the frame reloaded and lost the data.
    Ready { version: u32 },
    /// The data `id` was read and is being drawn.
    Received { id: u32 },
    /// The data `id` could not be drawn; `message` says why (plain text).
    Error { id: u32, message: String },
    /// The height of the shell's content in CSS pixels.
    Resize { height: f64 },
}

/// What the shell received: data, or a message of ours it cannot accept.
#[derive(Debug, Clone, PartialEq)]
pub enum ShellInbox {
    Data(ToShell),
    /// A `zdr:vizdata` the shell must answer with an error (with its id).
    Refused {
        id: u32,
        message: String,
    },
}

impl ToShell {
    pub fn encode(&self) -> JsValue {
        match self {
            ToShell::VizData { id, json } => message(
                VIZDATA,
                &[
                    ("id", JsValue::from(*id)),
                    ("visualization_data", JsValue::from_str(json)),
                ],
            ),
        }
    }

    /// Reads a message sent to the shell. `None` for anything that is not a
    /// `zdr:vizdata` with an id; an unreadable one with an id is refused.
    pub fn decode(data: &JsValue) -> Option<ShellInbox> {
        if kind(data)? != VIZDATA {
            return None;
        }
        let id = id_of(data)?;
        let version = field(data, "version").as_f64();
        if version != Some(f64::from(VERSION)) {
            return Some(ShellInbox::Refused {
                id,
                message: format!(
                    "the widget speaks postMessage protocol version {}, this service speaks version {VERSION}; use matching versions",
                    version.map_or_else(|| "(none)".to_owned(), |v| v.to_string())
                ),
            });
        }
        match field(data, "visualization_data").as_string() {
            Some(json) => Some(ShellInbox::Data(ToShell::VizData { id, json })),
            None => Some(ShellInbox::Refused {
                id,
                message: "visualization_data must be the JSON text of the card's data".into(),
            }),
        }
    }
}

impl ToWidget {
    pub fn encode(&self) -> JsValue {
        match self {
            ToWidget::Ready { version } => message(READY, &[("version", JsValue::from(*version))]),
            ToWidget::Received { id } => message(RECEIVED, &[("id", JsValue::from(*id))]),
            ToWidget::Error { id, message: text } => message(
                ERROR,
                &[
                    ("id", JsValue::from(*id)),
                    ("message", JsValue::from_str(text)),
                ],
            ),
            ToWidget::Resize { height } => message(RESIZE, &[("height", JsValue::from(*height))]),
        }
    }

    /// Reads a message sent to the widget; `None` for anything malformed.
    /// A `ready` of another version is returned, so the widget can say so.
    pub fn decode(data: &JsValue) -> Option<ToWidget> {
        let kind = kind(data)?;
        let version = field(data, "version").as_f64()?;
        if kind == READY {
            return (version.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&version))
                .then_some(ToWidget::Ready {
                    version: version as u32,
                });
        }
        if version != f64::from(VERSION) {
            return None;
        }
        match kind.as_str() {
            RECEIVED => Some(ToWidget::Received { id: id_of(data)? }),
            ERROR => {
                let text = field(data, "message").as_string()?;
                Some(ToWidget::Error {
                    id: id_of(data)?,
                    message: clip(&text),
                })
            }
            RESIZE => {
                let height = field(data, "height").as_f64()?;
                (height.is_finite() && height >= 0.0).then_some(ToWidget::Resize { height })
            }
            _ => None,
        }
    }
}

fn message(kind: &str, fields: &[(&str, JsValue)]) -> JsValue {
    let object = Object::new();
    // Setting own data properties on a fresh plain object cannot fail.
    let _ = Reflect::set(&object, &"type".into(), &kind.into());
    let _ = Reflect::set(&object, &"version".into(), &VERSION.into());
    for (name, value) in fields {
        let _ = Reflect::set(&object, &(*name).into(), value);
    }
    object.into()
}

/// The `type` of a `zdr:` message. Messages arrive structured-cloned, so
/// reading them runs no page code; the checks are for malformed data.
fn kind(data: &JsValue) -> Option<String> {
    if !data.is_object() {
        return None;
    }
    field(data, "type")
        .as_string()
        .filter(|kind| kind.starts_with("zdr:"))
}

fn field(data: &JsValue, name: &str) -> JsValue {
    Reflect::get(data, &name.into()).unwrap_or(JsValue::UNDEFINED)
}

fn id_of(data: &JsValue) -> Option<u32> {
    let id = field(data, "id").as_f64()?;
    (id.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&id)).then_some(id as u32)
}

/// At most [`MAX_MESSAGE_CHARS`] characters, control characters dropped.
fn clip(text: &str) -> String {
    let mut out: String = text
        .chars()
        .filter(|c| !c.is_control() || *c == ' ')
        .take(MAX_MESSAGE_CHARS)
        .collect();
    if text.chars().count() > MAX_MESSAGE_CHARS {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::clip;

    #[test]
    fn messages_are_clipped_and_cleaned() {
        assert_eq!(clip("a\u{0}b\nc d"), "abc d");
        let long = "x".repeat(600);
        let clipped = clip(&long);
        assert_eq!(clipped.chars().count(), super::MAX_MESSAGE_CHARS + 1);
        assert!(clipped.ends_with('…'));
    }
}
