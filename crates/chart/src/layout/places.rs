//! places: laid out by the next change; until then the card says so.

use super::pen::Rect;
use super::{frame, Ctx};

pub fn draw(ctx: &Ctx<'_>, body: Rect, _data: &crate::model::Places) {
    frame::draw_empty(ctx.p, ctx.theme, ctx.sizes, body, "Not drawn yet");
}
