//! timeline: a bar per item from its start to its end.

use zdr_chart::model::{parse_date, Card, DatePrecision, TimelineItem};

/// Items `(label, start, end)` with their dates as text; `None` when a
/// date is no date or an item ends before it starts.
pub(crate) fn timeline(items: Vec<(String, String, String)>) -> Option<Card> {
    let mut precision = DatePrecision::Year;
    let mut out = Vec::with_capacity(items.len());
    for (label, start, end) in items {
        let (start, p1) = parse_date(&start)?;
        let (end, p2) = parse_date(&end)?;
        if end < start {
            return None;
        }
        precision = precision.max(p1).max(p2);
        out.push(TimelineItem { label, start, end });
    }
    Some(Card::Timeline {
        items: out,
        precision,
    })
}
