//! `widget_message`: the widget's postMessage decoder, both directions, on any message fields
//! (as `Fields::read` copies them out of the browser). Decoding must never
//! panic, and what it returns must respect the protocol's bounds.

use arbitrary::{Arbitrary, Unstructured};
use zdr_protocol::message::{
    decode_to_shell, decode_to_widget, Fields, ToWidget, MAX_MESSAGE_CHARS, MAX_RESIZE_PX,
};

/// A message type: one of ours (so the fuzzer reaches every branch) or any text.
#[derive(Debug, Arbitrary)]
enum Kind {
    Ready,
    VizData,
    Received,
    Error,
    Resize,
    Other(String),
}

/// A number as JavaScript may send it: the protocol's own values, the
/// edges of `u32` and of `f64`, or any double.
#[derive(Debug, Arbitrary)]
enum Number {
    Version,
    Whole(u32),
    Edge(u8),
    Any(f64),
}

#[derive(Debug, Arbitrary)]
struct Message {
    kind: Option<Kind>,
    version: Option<Number>,
    id: Option<Number>,
    message: Option<String>,
    height: Option<Number>,
    visualization_data: Option<String>,
}

const EDGES: [f64; 12] = [
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    -0.0,
    -1.0,
    0.5,
    4_294_967_295.0,
    4_294_967_296.0,
    MAX_RESIZE_PX,
    MAX_RESIZE_PX + 0.5,
    f64::MAX,
    f64::MIN_POSITIVE,
];

impl Number {
    fn value(self) -> f64 {
        match self {
            Number::Version => f64::from(zdr_protocol::message::VERSION),
            Number::Whole(n) => f64::from(n),
            Number::Edge(i) => EDGES[usize::from(i) % EDGES.len()],
            Number::Any(f) => f,
        }
    }
}

impl From<Message> for Fields {
    fn from(m: Message) -> Fields {
        Fields {
            kind: m.kind.map(|kind| match kind {
                Kind::Ready => zdr_protocol::message::READY.to_owned(),
                Kind::VizData => zdr_protocol::message::VIZDATA.to_owned(),
                Kind::Received => zdr_protocol::message::RECEIVED.to_owned(),
                Kind::Error => zdr_protocol::message::ERROR.to_owned(),
                Kind::Resize => zdr_protocol::message::RESIZE.to_owned(),
                Kind::Other(text) => text,
            }),
            version: m.version.map(Number::value),
            id: m.id.map(Number::value),
            message: m.message,
            height: m.height.map(Number::value),
            visualization_data: m.visualization_data,
        }
    }
}

/// One input: the bytes a [`Message`] is made of, as libfuzzer-sys makes
/// it (`arbitrary_take_rest` over the whole input; too short, nothing).
pub fn check(bytes: &[u8]) {
    if bytes.len() < Message::size_hint(0).0 {
        return;
    }
    let Ok(message) = Message::arbitrary_take_rest(Unstructured::new(bytes)) else {
        return;
    };
    let fields = Fields::from(message);
    match decode_to_widget(&fields) {
        Some(ToWidget::Resize { height }) => {
            assert!(
                height.is_finite() && (0.0..=MAX_RESIZE_PX).contains(&height),
                "resize to {height} px"
            );
        }
        Some(ToWidget::Error { message, .. }) => {
            // The cut-off mark may follow the kept characters.
            assert!(
                message.chars().count() <= MAX_MESSAGE_CHARS + 1,
                "error message too long"
            );
            assert!(
                !message.chars().any(|c| c.is_control()),
                "control character in an error message"
            );
        }
        _ => {}
    }
    let _ = decode_to_shell(&fields);
}
