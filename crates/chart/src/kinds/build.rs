//! Building a card and writing it (the `serde` feature): a built card is
//! checked against its kind's limits and finished as a read one is, and
//! each kind writes its own `data`; `crate::model::write` holds the rest.

use serde::ser::{Serialize, SerializeMap, Serializer};

use super::within_limits;
use crate::model::chart::Chart;
use crate::model::write::Config;
use crate::model::{Card, CardKind, Categorical, DataError, VizConfig};

impl Chart {
    /// A chart built rather than read: `config` names `kind` (as every
    /// written chart does), and what the readers check and do once a card is
    /// read is checked and done here too (`right_axis_series` names series
    /// there are, `percent_change` is applied, a stacked area is stacked from
    /// a timeseries's series, refusing values below zero).
    pub fn build(mut config: VizConfig, kind: CardKind, card: Card) -> Result<Chart, DataError> {
        config.kind = Some(kind);
        within_limits(&card)?;
        let card = match card {
            Card::Categorical(categorical) => Card::Categorical(Categorical {
                kind,
                ..categorical
            }),
            card => card,
        };
        Chart::new(config, kind, card)
    }
}

impl Serialize for Chart {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("viz_config", &Config(self))?;
        map.serialize_entry("data", &Data(self))?;
        map.end()
    }
}

struct Data<'a>(&'a Chart);

impl Serialize for Data<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        super::write(self.0, serializer)
    }
}
