//! `table_readers`: zdr-host's four table readers (CSV, .xlsx, .xls,
//! .parquet) on hostile bytes. The first byte picks the format the file
//! claims, the rest is the file. A reader answers with a table within the
//! bounds or an error, and never aborts, takes more than 256 MB (or a single
//! allocation that large) or a second.
//!
//! calamine and the parquet crate panic on some malformed files; the host
//! runs them under `catch_unwind` and answers 422 (`table::guarded`). So a
//! panic whose place is in a crate of the registry is let unwind to that
//! guard, as it is in the host. A panic anywhere else is a finding, even
//! when the guard catches it: it goes on to the hook that was there before
//! (libFuzzer's aborts), and the check fails when the read returns.

use std::cell::RefCell;
use std::panic::PanicHookInfo;
use std::sync::Once;

const FORMATS: [&str; 4] = ["csv", "xlsx", "xls", "parquet"];

static HOOK: Once = Once::new();

thread_local! {
    /// Where a panic in our code happened during this thread's read.
    static OURS: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Registry crates' sources are under `$CARGO_HOME/registry/src/`, wherever
/// `CARGO_HOME` is.
fn third_party(info: &PanicHookInfo<'_>) -> bool {
    info.location().is_some_and(|at| {
        let file = at.file().replace('\\', "/");
        file.contains("/registry/src/")
    })
}

fn install_hook() {
    HOOK.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if third_party(info) {
                return;
            }
            let place = info.location().map(ToString::to_string);
            OURS.with(|ours| *ours.borrow_mut() = Some(place.unwrap_or_default()));
            before(info);
        }));
    });
}

/// One input: a format byte, then the file.
pub fn check(bytes: &[u8]) {
    install_hook();
    let Some((&selector, file)) = bytes.split_first() else {
        return;
    };
    let format = FORMATS[usize::from(selector) % FORMATS.len()];
    OURS.with(|ours| ours.borrow_mut().take());
    let read = zdr_host::api::read_table(format, file);
    let ours = OURS.with(|ours| ours.borrow_mut().take());
    assert!(
        ours.is_none(),
        "a panic in our code at {ours:?}, reading {format}"
    );
    if let Ok((rows, columns)) = read {
        assert!((1..=100_000).contains(&rows), "{rows} rows");
        assert!(columns <= 200, "{columns} columns");
        assert!(
            rows.saturating_mul(columns) <= 1_000_000,
            "{rows} x {columns}"
        );
    }
}
