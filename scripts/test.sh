#!/usr/bin/env bash
# Runs every test: formatting and lints, the native tests (with every fuzz
# corpus replayed), the service API again on PostgreSQL and an S3 server,
# the widget in headless Chromium and Firefox, the package build and its
# types, and the end-to-end tests. Installs whatever is missing first, and
# ends with a table of every step's wall and CPU seconds
# (docs/demo-and-tests.md keeps a bare machine's and a warm one's).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

SHARED=""
finish() {
  local status=$?
  if [ -n "$SHARED" ]; then bash "$ROOT/scripts/shared-stores.sh" stop "$SHARED"; fi
  step_table "$status"
  exit "$status"
}
trap finish EXIT

step "install: wasm32 target, wasm-bindgen-cli" "install what is missing: the wasm32 target, wasm-bindgen-cli"
ensure_rust_wasm
step "install: npm packages"
ensure_npm_packages
step "install: browsers, fonts, geckodriver" "install what is missing: Chromium, ChromeDriver, Firefox ESR, fonts, geckodriver"
ensure_browsers
step "install: curl, jq, python3-venv"
ensure_test_tools
step "install: PostgreSQL, s3s-fs" "install what is missing: PostgreSQL, s3s-fs"
ensure_shared_stores

step "cargo fmt --check"
cargo fmt --all -- --check
# The fuzz crate is a workspace of its own (nightly); its targets are one
# line each, but they are still formatted.
cargo fmt --manifest-path fuzz/Cargo.toml -- --check

step "clippy: native" "cargo clippy --workspace --all-targets -D warnings"
cargo clippy --workspace --all-targets --quiet -- -D warnings
step "clippy: wasm32" "cargo clippy --target wasm32-unknown-unknown (the two WebAssembly modules and what they link)"
# The host, its libraries (the admission among them) and the fuzz checks are
# native (tokio, sockets, SQLite, the file readers): not wasm32 targets.
cargo clippy --workspace --exclude zdr-host --exclude zdr-api --exclude zdr-table --exclude zdr-embed-page \
  --exclude zdr-limits --exclude zdr-fuzz-checks --all-targets --quiet --target wasm32-unknown-unknown -- -D warnings
# The engine as the package ships it: split into chunks (crates/engine/src/chunks.rs).
cargo clippy -p zdr-engine --features chunks --all-targets --quiet --target wasm32-unknown-unknown -- -D warnings
step "clippy: zdr-chart without maps" "cargo clippy -p zdr-chart --no-default-features (the widget's small build)"
cargo clippy -p zdr-chart --all-targets --no-default-features --quiet -- -D warnings

step "module cycles, the embed's links" "no module cycles in any crate; the embed links nothing that stores or fetches, the file readers no web framework"
node scripts/module-cycles.mjs
if cargo tree -p zdr-embed-page -e normal --prefix none | grep -E '^(rusqlite|reqwest|hyper-rustls|calamine|parquet|tokio-postgres|object_store) '; then
  echo "zdr-embed-page depends on a crate that stores or fetches: the zero-retention path must not" >&2
  exit 1
fi
if cargo tree -p zdr-table -e normal --prefix none | grep -E '^(axum|hyper|tokio|clap) '; then
  echo "zdr-table depends on a web framework, runtime or CLI parser: the file readers must not" >&2
  exit 1
fi

step "docs name what exists" "every repository path, Rust path and link anchor named in README.md and docs/*.md exists"
node scripts/doc-paths.mjs README.md docs/*.md CHANGELOG.md

step "cargo test --workspace" "cargo test --workspace (widget units; zdr-chart; zdr-host's router, API, SDK and hostile files; every fuzz corpus replayed)"
cargo test --workspace --quiet

step "service API on PostgreSQL + S3" "the service API on PostgreSQL and an S3 server (scripts/shared-stores.sh): its router and SDK tests again, two replicas, the bucket's rotating credentials, and TLS to a PostgreSQL that takes TLS only"
SHARED="$(mktemp -d)"
bash scripts/shared-stores.sh start "$SHARED"
(
  source "$SHARED/env"
  # Each host a test starts gets a database and a bucket folder of its own.
  unset ZDR_DATABASE_URL ZDR_OBJECT_STORE
  # The binaries the workspace run built: `cargo test -p zdr-host` resolves
  # features for one package and would build every dependency again (gigabytes).
  bins="$(workspace_tests zdr-host api files formats hardening indexes saved_views \
    search threads visualize connector questions sdk openapi replicas postgres_tls bucket_credentials)"
  cd crates/host
  for bin in $bins; do
    case "$bin" in
      */replicas-*|*/postgres_tls-*|*/bucket_credentials-*) "$bin" --quiet --ignored ;;
      *) "$bin" --quiet ;;
    esac
  done
)
bash scripts/shared-stores.sh stop "$SHARED"
SHARED=""

# Both WebAssembly modules' browser tests (the root crate's tests/ and
# crates/engine/tests), built once for both browsers: cargo runs each test
# binary through wasm-bindgen-test-runner, which drives the browser whose
# driver is named.
step "wasm32 tests: build" "cargo test --target wasm32-unknown-unknown --no-run (the service module's and the engine's browser tests)"
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner WASM_BINDGEN_TEST_ONLY_WEB=1
# No --quiet when they run: cargo would hand it to the runner, which refuses it.
wasm_tests=(cargo test --target wasm32-unknown-unknown -p zdr-embed -p zdr-engine --tests)
"${wasm_tests[@]}" --quiet --no-run
step "wasm32 tests: Chromium" "the browser tests in headless Chromium"
CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}" "${wasm_tests[@]}"
step "wasm32 tests: Firefox" "the browser tests in headless Firefox ESR"
GECKODRIVER="${GECKODRIVER:-$(command -v geckodriver)}" "${wasm_tests[@]}"
unset CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER WASM_BINDGEN_TEST_ONLY_WEB

step "build the package" "build the package (scripts/build.sh)"
bash scripts/build.sh

step "size budgets, TypeScript types" "size budgets (gzip -9 of what six pages download, in Chromium) and the package's TypeScript types (tsc -p tests/types)"
node scripts/size-report.mjs --check
tsc -p tests/types

# The host binary `cargo test --workspace` built for its own tests: the
# end-to-end tests build nothing.
step "end-to-end tests" "end-to-end tests (packed package, zdr-host and a recording responder, headless Chromium; canvas vs SVG images in test-results/agreement/)"
ZDR_HOST_BIN="${ZDR_HOST_BIN:-$ROOT/target/debug/zdr-host}"
[ -x "$ZDR_HOST_BIN" ] || { echo "no zdr-host binary at $ZDR_HOST_BIN" >&2; exit 1; }
# legibility.test.mjs measures the form page in Firefox ESR too, through the
# geckodriver installed above (not only where an install put it by default).
ZDR_HOST_BIN="$ZDR_HOST_BIN" GECKODRIVER="${GECKODRIVER:-$(command -v geckodriver)}" \
  node --test --test-reporter=spec tests/e2e/

step "JSON Schema" "JSON Schema: every example validates, bad documents do not (ajv)"
node --test --test-reporter=spec tests/schema/
