#!/usr/bin/env bash
# Measures the widget's .wasm at cargo opt-level "s" and "z" (each after wasm-opt
# -Oz), the measurement behind the choice in Cargo.toml's [profile.wasm-release].
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
ensure_build_tools
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for level in s z; do
  CARGO_PROFILE_WASM_RELEASE_OPT_LEVEL=$level cargo build --quiet --profile wasm-release --target wasm32-unknown-unknown
  wasm-bindgen --target web --out-dir "$out/$level" target/wasm32-unknown-unknown/wasm-release/zdr_embed.wasm
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-reference-types \
    --enable-sign-ext --enable-mutable-globals --enable-multivalue --strip-debug --strip-producers \
    "$out/$level/zdr_embed_bg.wasm" -o "$out/$level.wasm"
  printf 'opt-level "%s": %8d bytes raw, %8d bytes gzip -9\n' "$level" \
    "$(stat -c %s "$out/$level.wasm")" "$(gzip -9c "$out/$level.wasm" | wc -c)"
done
# Leave the profile's own build in target/ for the next scripts/build.sh.
cargo build --quiet --profile wasm-release --target wasm32-unknown-unknown
