//! Reading a card: every way in to a [`Chart`] ends in a kind's reader and
//! [`finish`], so these entries sit with the kinds, above the model they
//! fill.

use super::finish;
use crate::model::chart::Chart;
use crate::model::{Card, CardKind, Columns, DataError, GivenSeries, VisualizationData, VizConfig};

impl Chart {
    /// Timeseries and scatter cards are read straight from the text into
    /// their columns; other cards, and any document with an error, through
    /// the tree of [`VisualizationData`] (which words every error).
    pub fn from_json(text: &str) -> Result<Chart, DataError> {
        if !cfg!(feature = "stream") {
            return Chart::from_json_tree(text);
        }
        match crate::model::read_streaming(text, None) {
            Some(read) => read.and_then(|(config, kind, card)| Chart::new(config, kind, card)),
            None => Chart::from_data(&VisualizationData::from_json(text)?),
        }
    }

    /// [`Chart::from_json`], where `{"$column": N}` in place of an array
    /// of numbers stands for `columns[N]` (NaN a missing value): the
    /// widget's typed arrays, passed beside the text, not written into
    /// it. Each column is used at most once.
    pub fn from_json_with_columns(text: &str, columns: Vec<Vec<f64>>) -> Result<Chart, DataError> {
        let mut columns = Columns::new(columns);
        if !cfg!(feature = "stream") {
            return Chart::from_data(&VisualizationData::from_json_in(text, Some(&mut columns))?);
        }
        match crate::model::read_streaming(text, Some(&mut columns)) {
            Some(read) => read.and_then(|(config, kind, card)| Chart::new(config, kind, card)),
            None => Chart::from_data(&VisualizationData::from_json_in(text, Some(&mut columns))?),
        }
    }

    /// A timeseries or scatter card from `viz_config`'s JSON text and its
    /// series handed over as columns ([`GivenSeries`]), asked of `series`
    /// (once) only once `viz_config` reads as such a card; `None` for anything
    /// these do not read without error (another card type, a bad value):
    /// read the whole as JSON text then, for its error.
    pub fn from_columns(
        config: &str,
        series: &mut dyn FnMut() -> Vec<GivenSeries>,
    ) -> Option<Chart> {
        crate::model::given::read(config, series)
            .and_then(|(config, kind, card)| Chart::new(config, kind, card).ok())
    }

    /// [`Chart::from_json`] always through the tree: the reader the
    /// streaming one is tested against.
    #[doc(hidden)]
    pub fn from_json_tree(text: &str) -> Result<Chart, DataError> {
        Chart::from_data(&VisualizationData::from_json(text)?)
    }

    pub fn from_data(data: &VisualizationData) -> Result<Chart, DataError> {
        Chart::new(data.config.clone(), data.kind(), data.card()?)
    }

    /// Every reader ends here: what the config asks of the data read
    /// (`right_axis_series`, `percent_change`) is checked and done once,
    /// whichever way it was read.
    pub(crate) fn new(
        mut config: VizConfig,
        kind: CardKind,
        mut card: Card,
    ) -> Result<Chart, DataError> {
        if let Card::Timeseries { series, .. } = &card {
            crate::sides::check(&config, series)?;
        }
        if config.percent_change {
            crate::change::since_start(&mut config, &mut card);
        }
        let card = finish(kind, card, config.normalize)?;
        Ok(Chart { config, kind, card })
    }

    /// The group whose code draws and describes the card: that of the
    /// kind its data is drawn as (see [`crate::is_loaded`]).
    pub fn group(&self) -> crate::model::KindGroup {
        super::drawn_kind(self).group()
    }

    /// The data read as `kind`, whatever `viz_component_type` says: one
    /// document reaches every reader and drawer (as a fuzzer wants).
    pub fn from_data_as(data: &VisualizationData, kind: CardKind) -> Result<Chart, DataError> {
        Chart::new(data.config.clone(), kind, Card::read(kind, &data.data)?)
    }
}

impl VisualizationData {
    /// Reads the data as the card type needs it.
    pub fn card(&self) -> Result<Card, DataError> {
        let kind = self.kind();
        let card = Card::read_with(kind, &self.data, self.config.epoch_ms)?;
        finish(kind, card, self.config.normalize)
    }
}
