#!/usr/bin/env bash
# Runs every test: formatting and lints, native unit tests, the widget in headless
# Chromium and Firefox, the package build and its types, and the end-to-end tests.
# Installs whatever is missing first.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
ensure_build_tools
ensure_browsers
ensure_test_tools

say "cargo fmt --check"
cargo fmt --all -- --check

say "cargo clippy (native and wasm32)"
cargo clippy --workspace --all-targets --quiet -- -D warnings
# The host and its three libraries are native (tokio, sockets, SQLite, the file readers): not wasm32 targets.
cargo clippy --workspace --exclude zdr-host --exclude zdr-api --exclude zdr-table --exclude zdr-embed-page --all-targets --quiet --target wasm32-unknown-unknown -- -D warnings
# zdr-chart without the map boundaries (the widget's small build).
cargo clippy -p zdr-chart --all-targets --no-default-features --quiet -- -D warnings

say "no module cycles in any crate (scripts/module-cycles.mjs)"
node scripts/module-cycles.mjs

say "the embed links nothing that stores or fetches (cargo tree -p zdr-embed-page)"
if cargo tree -p zdr-embed-page -e normal --prefix none | grep -E '^(rusqlite|reqwest|hyper-rustls|calamine|parquet|tokio-postgres|object_store) '; then
  echo "zdr-embed-page depends on a crate that stores or fetches: the zero-retention path must not" >&2
  exit 1
fi

say "cargo test --workspace (widget units; zdr-chart model, SVG drawing of every example, proptest)"
cargo test --workspace --quiet

say "the service API on PostgreSQL and an S3 server (scripts/shared-stores.sh): its router and SDK tests again, then two replicas"
ensure_shared_stores
SHARED="$(mktemp -d)"
trap 'bash "$ROOT/scripts/shared-stores.sh" stop "$SHARED"' EXIT
bash scripts/shared-stores.sh start "$SHARED"
(
  source "$SHARED/env"
  # Each host a test starts gets a database and a bucket folder of its own.
  unset ZDR_DATABASE_URL ZDR_OBJECT_STORE
  # The binaries the workspace run built: `cargo test -p zdr-host` resolves
  # features for one package and would build every dependency again (gigabytes).
  bins="$(workspace_tests zdr-host api files formats hardening indexes saved_views \
    search threads visualize connector questions sdk replicas)"
  cd crates/host
  for bin in $bins; do
    case "$bin" in
      */replicas-*) "$bin" --quiet --ignored ;;
      *) "$bin" --quiet ;;
    esac
  done
)
bash scripts/shared-stores.sh stop "$SHARED"
trap - EXIT

# Both WebAssembly modules: the service module (the root crate, tests/) and
# the engine module (crates/engine, its tests/).
for crate in . crates/engine; do
  say "wasm-pack test --headless --chrome $crate"
  CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}" wasm-pack test --headless --chrome "$crate"

  say "wasm-pack test --headless --firefox $crate"
  GECKODRIVER="${GECKODRIVER:-$(command -v geckodriver)}" wasm-pack test --headless --firefox "$crate"
done

say "build the package"
bash scripts/build.sh

say "size budgets (gzip -9: service module + entry with its glue, drop-in script, engine module + glue)"
node scripts/size-report.mjs --check

say "TypeScript types (tsc -p tests/types)"
tsc -p tests/types

say "cargo build -p zdr-host (the embed service, for the end-to-end tests)"
cargo build -p zdr-host --quiet

say "end-to-end tests (packed package, zdr-host and a recording responder, headless Chromium; canvas vs SVG images in test-results/agreement/)"
ZDR_HOST_BIN="${ZDR_HOST_BIN:-$ROOT/target/debug/zdr-host}" node --test --test-reporter=spec tests/e2e/

say "fuzzing: every target in fuzz/ for 15 s (libFuzzer, 256 MB, 1 s per input)"
bash scripts/fuzz.sh 15

say "JSON Schema: every example validates, bad documents do not (ajv)"
node --test --test-reporter=spec tests/schema/
