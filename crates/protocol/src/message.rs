//! The postMessage protocol between the widget (in the page) and the
//! service's shell page (in the iframe), version 1. Both ends are in this
//! crate, so they cannot drift apart; docs/postmessage-protocol.md describes
//! it for other implementations.
//!
//! Every message is a plain object `{ type: "zdr:…", version: 1, … }`. Anything
//! else (other libraries' messages, other versions, wrong field types) decodes
//! to `None` and is ignored: a page carries messages from many senders.

use js_sys::{JsString, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

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

/// How much of an error `message` is copied out of the browser, in UTF-16
/// units: longer ones are cut in the browser first, so a hostile frame cannot
/// make the widget copy megabytes into its memory to show 500 characters.
pub const MAX_MESSAGE_UNITS: u32 = 4096;

/// The longest `visualization_data` text, in UTF-16 units (16 Mi). The form
/// mode's host takes 4 MiB of UTF-8 by default (`--body-limit`), which is at
/// most 4 Mi units, so this is no tighter; a larger text is refused before it is
/// copied into the shell's WebAssembly memory (at most 4 GiB, shared by every
/// chart in the page).
pub const MAX_VIZDATA_UNITS: u32 = 16 * 1024 * 1024;

/// The longest `type` read; every type of ours is far shorter.
const MAX_KIND_UNITS: u32 = 64;

/// The tallest frame a `zdr:resize` may ask for, in CSS pixels. The shell's
/// card is 8:5, so a taller one would be 16,000 px wide: no screen shows
/// that, while a bound keeps a misbehaving page from stretching the
/// embedding page's layout (the old bound, 100,000 px, let it add 100 screens).
pub const MAX_RESIZE_PX: f64 = 10_000.0;

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

/// The fields of a message, copied out of the browser with every string
/// bounded. Reading them is the only step that touches JS; deciding what they
/// mean ([`decode_to_widget`], [`decode_to_shell`]) is pure, so it is tested
/// and fuzzed natively.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Fields {
    pub kind: Option<String>,
    pub version: Option<f64>,
    pub id: Option<f64>,
    /// At most [`MAX_MESSAGE_UNITS`] UTF-16 units of it.
    pub message: Option<String>,
    pub height: Option<f64>,
    /// `None` when missing, not a string, or longer than [`MAX_VIZDATA_UNITS`].
    pub visualization_data: Option<String>,
}

impl Fields {
    /// Reads a message event's `data`. Messages arrive structured-cloned, so
    /// reading them runs no page code; every string's length is checked
    /// before it is copied into wasm memory.
    pub fn read(data: &JsValue) -> Fields {
        if !data.is_object() {
            return Fields::default();
        }
        let kind = bounded(&field(data, "type"), MAX_KIND_UNITS);
        // Only our messages are read further: a page carries many senders'.
        if !kind.as_deref().is_some_and(|kind| kind.starts_with("zdr:")) {
            return Fields::default();
        }
        Fields {
            kind,
            version: field(data, "version").as_f64(),
            id: field(data, "id").as_f64(),
            message: prefix(&field(data, "message"), MAX_MESSAGE_UNITS),
            height: field(data, "height").as_f64(),
            visualization_data: bounded(&field(data, "visualization_data"), MAX_VIZDATA_UNITS),
        }
    }
}

impl ToShell {
    pub fn encode(&self) -> JsValue {
        match self {
            ToShell::VizData { id, json } => encode_vizdata(*id, &JsValue::from_str(json)),
        }
    }
}

/// `zdr:vizdata` with the JSON text as the page's own JS string: the widget
/// sends it without copying it into its memory.
pub fn encode_vizdata(id: u32, json: &JsValue) -> JsValue {
    message(
        VIZDATA,
        &[
            ("id", JsValue::from(id)),
            ("visualization_data", json.clone()),
        ],
    )
}

/// What a message means to the shell. `None` for anything that is not a
/// `zdr:vizdata` with an id; an unreadable one with an id is refused, so the
/// widget hears why.
pub fn decode_to_shell(fields: &Fields) -> Option<ShellInbox> {
    if fields.kind.as_deref() != Some(VIZDATA) {
        return None;
    }
    let id = whole_u32(fields.id)?;
    if fields.version != Some(f64::from(VERSION)) {
        return Some(ShellInbox::Refused {
            id,
            message: format!(
                "the widget speaks postMessage protocol version {}, this service speaks version {VERSION}; use matching versions",
                version_text(fields.version)
            ),
        });
    }
    match &fields.visualization_data {
        Some(json) => Some(ShellInbox::Data(ToShell::VizData {
            id,
            json: json.clone(),
        })),
        None => Some(ShellInbox::Refused {
            id,
            message: format!(
                "visualization_data must be the JSON text of the card's data, at most {MAX_VIZDATA_UNITS} UTF-16 units long"
            ),
        }),
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
}

/// What a message means to the widget; `None` for anything malformed. A
/// `ready` of another version is returned, so the widget can say so; a
/// `resize` is clamped to [`MAX_RESIZE_PX`] and rounded up to whole pixels.
pub fn decode_to_widget(fields: &Fields) -> Option<ToWidget> {
    let kind = fields.kind.as_deref()?;
    let version = fields.version?;
    if kind == READY {
        return whole_u32(Some(version)).map(|version| ToWidget::Ready { version });
    }
    if version != f64::from(VERSION) {
        return None;
    }
    match kind {
        RECEIVED => Some(ToWidget::Received {
            id: whole_u32(fields.id)?,
        }),
        ERROR => Some(ToWidget::Error {
            id: whole_u32(fields.id)?,
            message: clip(fields.message.as_deref()?),
        }),
        RESIZE => {
            let height = fields.height?;
            (height.is_finite() && height >= 0.0).then(|| ToWidget::Resize {
                height: height.ceil().min(MAX_RESIZE_PX),
            })
        }
        _ => None,
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

fn field(data: &JsValue, name: &str) -> JsValue {
    Reflect::get(data, &name.into()).unwrap_or(JsValue::UNDEFINED)
}

/// The string, if it is one of at most `max` UTF-16 units; the length is
/// read without copying.
fn bounded(value: &JsValue, max: u32) -> Option<String> {
    let text = value.dyn_ref::<JsString>()?;
    (text.length() <= max).then(|| String::from(text))
}

/// The first `max` UTF-16 units of a string, cut in the browser.
fn prefix(value: &JsValue, max: u32) -> Option<String> {
    let text = value.dyn_ref::<JsString>()?;
    if text.length() <= max {
        return Some(String::from(text));
    }
    Some(String::from(text.slice(0, max)))
}

fn whole_u32(value: Option<f64>) -> Option<u32> {
    let value = value?;
    (value.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&value)).then_some(value as u32)
}

/// The version a message claimed, for the refusal. A version is a whole
/// number; anything else is named, not written out: an `f64` written with
/// `{}` would link core's float formatting (about 20 KB) into the engine.
fn version_text(version: Option<f64>) -> String {
    match (version, whole_u32(version)) {
        (None, _) => "(none)".to_owned(),
        (_, Some(whole)) => crate::text::decimal(whole),
        (Some(_), None) => "(not a whole number)".to_owned(),
    }
}

/// At most [`MAX_MESSAGE_CHARS`] characters, control characters dropped,
/// and `…` when something was cut.
fn clip(text: &str) -> String {
    // A loop rather than `filter`, `take` and `collect`: the widget's module
    // would carry the iterator machinery for this alone.
    let mut out = String::new();
    for (kept, c) in text.chars().filter(|c| !c.is_control()).enumerate() {
        if kept == MAX_MESSAGE_CHARS {
            out.push('…');
            break;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(kind: &str) -> Fields {
        Fields {
            kind: Some(kind.to_owned()),
            version: Some(f64::from(VERSION)),
            ..Fields::default()
        }
    }

    #[test]
    fn messages_are_clipped_and_cleaned() {
        assert_eq!(clip("a\u{0}b\nc d"), "abc d");
        let long = "x".repeat(600);
        let clipped = clip(&long);
        assert_eq!(clipped.chars().count(), MAX_MESSAGE_CHARS + 1);
        assert!(clipped.ends_with('…'));
        // Control characters dropped do not count as cut text.
        let exact = format!("{}\n", "y".repeat(MAX_MESSAGE_CHARS));
        assert_eq!(clip(&exact), "y".repeat(MAX_MESSAGE_CHARS));
    }

    #[test]
    fn the_widget_reads_each_message_of_ours() {
        let ready = fields(READY);
        assert_eq!(
            decode_to_widget(&ready),
            Some(ToWidget::Ready { version: VERSION })
        );
        let received = Fields {
            id: Some(7.0),
            ..fields(RECEIVED)
        };
        assert_eq!(
            decode_to_widget(&received),
            Some(ToWidget::Received { id: 7 })
        );
        let error = Fields {
            id: Some(3.0),
            message: Some("data[0].y: bad\u{7}".into()),
            ..fields(ERROR)
        };
        assert_eq!(
            decode_to_widget(&error),
            Some(ToWidget::Error {
                id: 3,
                message: "data[0].y: bad".into()
            })
        );
        let resize = Fields {
            height: Some(120.2),
            ..fields(RESIZE)
        };
        assert_eq!(
            decode_to_widget(&resize),
            Some(ToWidget::Resize { height: 121.0 })
        );
    }

    #[test]
    fn a_ready_of_another_version_is_read_so_the_widget_can_say_so() {
        let ready = Fields {
            version: Some(2.0),
            ..fields(READY)
        };
        assert_eq!(
            decode_to_widget(&ready),
            Some(ToWidget::Ready { version: 2 })
        );
        let fractional = Fields {
            version: Some(1.5),
            ..fields(READY)
        };
        assert_eq!(decode_to_widget(&fractional), None);
    }

    #[test]
    fn the_widget_ignores_malformed_messages() {
        let cases = [
            Fields::default(),
            fields("zdr:unknown"),
            Fields {
                version: None,
                id: Some(1.0),
                ..fields(RECEIVED)
            },
            Fields {
                version: Some(2.0),
                id: Some(1.0),
                ..fields(RECEIVED)
            },
            Fields {
                id: Some(-1.0),
                ..fields(RECEIVED)
            },
            Fields {
                id: Some(1.5),
                ..fields(RECEIVED)
            },
            Fields {
                id: Some(f64::NAN),
                ..fields(RECEIVED)
            },
            Fields {
                id: Some(f64::from(u32::MAX) + 1.0),
                ..fields(RECEIVED)
            },
            Fields {
                id: Some(1.0),
                ..fields(ERROR)
            },
            Fields {
                height: Some(f64::INFINITY),
                ..fields(RESIZE)
            },
            Fields {
                height: Some(-1.0),
                ..fields(RESIZE)
            },
            Fields {
                height: Some(f64::NAN),
                ..fields(RESIZE)
            },
        ];
        for case in cases {
            assert_eq!(decode_to_widget(&case), None, "{case:?}");
        }
    }

    #[test]
    fn resize_is_clamped_to_the_documented_maximum() {
        let huge = Fields {
            height: Some(100_000.0),
            ..fields(RESIZE)
        };
        assert_eq!(
            decode_to_widget(&huge),
            Some(ToWidget::Resize {
                height: MAX_RESIZE_PX
            })
        );
    }

    #[test]
    fn the_shell_reads_data_and_refuses_what_it_cannot_use() {
        let data = Fields {
            id: Some(4.0),
            visualization_data: Some("{}".into()),
            ..fields(VIZDATA)
        };
        assert_eq!(
            decode_to_shell(&data),
            Some(ShellInbox::Data(ToShell::VizData {
                id: 4,
                json: "{}".into()
            }))
        );
        // Missing, not a string, or over the bound all arrive as None.
        let missing = Fields {
            id: Some(5.0),
            ..fields(VIZDATA)
        };
        assert!(matches!(
            decode_to_shell(&missing),
            Some(ShellInbox::Refused { id: 5, message }) if message.contains("visualization_data")
        ));
        let other_version = Fields {
            id: Some(6.0),
            version: Some(2.0),
            visualization_data: Some("{}".into()),
            ..fields(VIZDATA)
        };
        assert!(matches!(
            decode_to_shell(&other_version),
            Some(ShellInbox::Refused { id: 6, message }) if message.contains("version 2")
        ));
    }

    #[test]
    fn a_refused_version_is_named() {
        assert_eq!(version_text(None), "(none)");
        assert_eq!(version_text(Some(2.0)), "2");
        assert_eq!(version_text(Some(4_294_967_295.0)), "4294967295");
        for odd in [1.5, -1.0, 1e300, f64::NAN, f64::INFINITY] {
            assert_eq!(version_text(Some(odd)), "(not a whole number)");
        }
        let refused = Fields {
            id: Some(7.0),
            version: Some(0.5),
            visualization_data: Some("{}".into()),
            ..fields(VIZDATA)
        };
        assert!(matches!(
            decode_to_shell(&refused),
            Some(ShellInbox::Refused { id: 7, message })
                if message.contains("protocol version (not a whole number), this service speaks version 1")
        ));
    }

    #[test]
    fn the_shell_ignores_what_has_no_id_or_is_not_data() {
        let no_id = Fields {
            visualization_data: Some("{}".into()),
            ..fields(VIZDATA)
        };
        assert_eq!(decode_to_shell(&no_id), None);
        let answer = Fields {
            id: Some(1.0),
            ..fields(RECEIVED)
        };
        assert_eq!(decode_to_shell(&answer), None);
        assert_eq!(decode_to_shell(&Fields::default()), None);
    }
}
