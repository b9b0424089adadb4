//! The layout's entry: a card laid out as a [`Scene`], the kind drawing its
//! own plot ([`super::draw`]) inside the chrome every card shares
//! (`crate::layout`), which knows no kind.

use super::{draw, fit, is_empty, toggled_series};
use crate::layout::chrome::{self, Sizes};
use crate::layout::pen::Pen;
use crate::layout::{Ctx, Theme};
use crate::model::chart::Chart;
use crate::scene::hit::Recorder;
use crate::scene::{Fit, Scene};
use crate::view::View;

impl Chart {
    /// Lays the card out once for `width` × `height` CSS pixels: every
    /// mark, text and the plot area as a display list, for any painter.
    /// With `record_hits`, the scene also says where every mark landed.
    pub fn scene(&self, width: f64, height: f64, theme: &Theme, record_hits: bool) -> Scene {
        self.scene_viewed(width, height, (theme, &View::default()), record_hits)
    }

    /// [`Chart::scene`] as the reader's `view` has the card.
    pub fn scene_viewed(
        &self,
        width: f64,
        height: f64,
        (theme, view): (&Theme, &View),
        record_hits: bool,
    ) -> Scene {
        self.scene_at(width, height, (1.0, view), theme, record_hits)
    }

    /// The names of the series the reader can hide from the legend (see
    /// [`View`]): those of a card of several series drawn as lines, areas,
    /// dots or bars; none for any other card.
    pub fn toggled_series(&self) -> Vec<&str> {
        let names = toggled_series(&self.card);
        if names.len() < 2 {
            return Vec::new();
        }
        names
    }

    /// [`Chart::scene`] for a painter `scale` device pixels per CSS pixel,
    /// as the reader's `view` has it: the layout is the same at every scale;
    /// only how finely long series are reduced follows it.
    pub(crate) fn scene_at(
        &self,
        width: f64,
        height: f64,
        (scale, view): (f64, &View),
        theme: &Theme,
        record_hits: bool,
    ) -> Scene {
        let hits = if record_hits {
            Recorder::on(crate::label::units(&self.config), self.config.locale)
        } else {
            Recorder::off()
        };
        self.layout(Pen::new(width, height, scale), (theme, view), hits)
    }

    /// Infallible: recording a display list cannot fail, so the card code
    /// carries no error paths (only painting onto a backend can fail).
    fn layout(&self, p: Pen, (theme, view): (&Theme, &View), hits: Recorder) -> Scene {
        self.lay_out(&p, (theme, view), &hits);
        let (width, height, plot) = (p.width, p.height, p.plot());
        let (items, roles) = p.finish();
        Scene {
            width,
            height,
            background: theme.background,
            plot,
            items,
            roles,
            fit: self.fit(),
            hits: hits.finish(),
        }
    }

    fn lay_out(&self, p: &Pen, (theme, view): (&Theme, &View), hits: &Recorder) {
        let _locale = crate::locale::scoped(self.config.locale);
        let sizes = Sizes::for_width(p.width);
        let body = chrome::draw_chrome(p, theme, &sizes, &self.config);
        if body.w < 20.0 || body.h < 20.0 {
            // No room for a chart: the title alone is the honest answer.
            return;
        }
        if is_empty(&self.card) {
            return chrome::draw_empty(p, theme, &sizes, body, "No data to show");
        }
        let ctx = Ctx {
            p,
            theme,
            sizes: &sizes,
            config: &self.config,
            hits,
            fit: self.fit(),
            view,
        };
        draw(&ctx, body, self)
    }

    /// How the card's plot follows a frame of another size than it was
    /// laid out for: maps and pies keep their shape, tables widen, every
    /// other card's marks fill the plot.
    pub fn fit(&self) -> Fit {
        fit(&self.card)
    }
}
