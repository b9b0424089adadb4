//! area_timeseries and stacked_area_timeseries: laid out by the next
//! change; until then the card says so.

use super::pen::Rect;
use super::{frame, Ctx};
use crate::model::{DatePrecision, Series, Stacked};

pub fn area(ctx: &Ctx<'_>, body: Rect, _series: &[Series], _precision: DatePrecision) {
    frame::draw_empty(ctx.p, ctx.theme, ctx.sizes, body, "Not drawn yet");
}

pub fn stacked(ctx: &Ctx<'_>, body: Rect, _stacked: &Stacked) {
    frame::draw_empty(ctx.p, ctx.theme, ctx.sizes, body, "Not drawn yet");
}
