//! The engine's chunks: each group of card kinds (`zdr_chart::model::KindGroup`,
//! a folder of zdr-chart's kinds) is a WebAssembly module of its own in the
//! package, fetched the first time the page draws a card of the group and
//! sharing the engine's memory and function table. A page that draws one
//! line card downloads the core and the lines' chunk, and no map outline.
//!
//! `scripts/build.sh` builds the module with the feature `chunks` and splits
//! it at the functions below (wasm_split: `wasm-split-cli`). Without the
//! feature (the browser tests of the crates, which link the engine whole)
//! every group is linked in and [`load`] has nothing to do.

use zdr_chart::model::KindGroup;

use crate::error::EngineError;

/// Makes `group`'s code present, fetching its chunk the first time; a
/// failed fetch is not remembered, so the next card of the group tries again.
pub(crate) async fn load(group: KindGroup) -> Result<(), EngineError> {
    if zdr_chart::is_loaded(group) {
        return Ok(());
    }
    #[cfg(all(feature = "chunks", target_arch = "wasm32"))]
    {
        let code = split::fetch(group)
            .await
            .and_then(Result::ok)
            .ok_or(EngineError::ChunkFailed(group))?;
        zdr_chart::install(group, code);
    }
    Ok(())
}

/// Loads every group of `groups` (`preload`'s kinds), all fetched at once.
pub(crate) async fn load_all(groups: Vec<KindGroup>) -> Result<(), EngineError> {
    // Every fetch started at once; the loop below then waits on each
    // (a load in flight is joined, not started again).
    for &group in &groups {
        wasm_bindgen_futures::spawn_local(async move {
            let _ = load(group).await;
        });
    }
    let mut first_error = None;
    for group in groups {
        if let Err(error) = load(group).await {
            first_error.get_or_insert(error);
        }
    }
    first_error.map_or(Ok(()), Err)
}

/// The split points: one function per group, each naming only its group's
/// code, so that the splitter puts that code (and nothing another chunk or
/// the core needs) in the group's chunk.
#[cfg(all(feature = "chunks", target_arch = "wasm32"))]
#[allow(unsafe_code)] // the macro declares the loader's import and the chunk's export
mod split {
    use wasm_split_helpers::{wasm_split, SplitLoaderError};
    use zdr_chart::model::KindGroup;
    use zdr_chart::{groups, GroupCode};

    type Loaded = Result<&'static GroupCode, SplitLoaderError>;

    /// A split point per group of zdr-chart's list (`for_each_group!`):
    /// `$name` is the chunk and the function; `fetch` finds a group's.
    macro_rules! split_points {
        ($($name:ident,)*) => {
            $(
                #[wasm_split($name, fallible)]
                fn $name() -> Loaded {
                    Ok(groups::$name())
                }
            )*

            /// `None` for a group with no split point (never: the list is
            /// zdr-chart's, which names every group).
            pub(super) async fn fetch(group: KindGroup) -> Option<Loaded> {
                match group.as_str() {
                    $(stringify!($name) => Some($name().await),)*
                    _ => None,
                }
            }
        };
    }

    zdr_chart::for_each_group!(split_points);
}
