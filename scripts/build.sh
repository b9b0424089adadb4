#!/usr/bin/env bash
# Builds the npm package into pkg/: the ES module, its .wasm, the TypeScript
# types and the drop-in script zdr_embed_widget.js; then prints their sizes.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
ensure_build_tools

# Rust >= 1.82 emits these features; wasm-opt must be told, never the compiler untold.
WASM_FEATURES=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-reference-types
  --enable-sign-ext --enable-mutable-globals --enable-multivalue)
optimise() { wasm-opt -Oz "${WASM_FEATURES[@]}" --strip-debug --strip-producers "$1" -o "$1"; }

say "wasm-pack build (ES module)"
wasm-pack --quiet build --profile wasm-release --target web --out-dir pkg --out-name zdr_embed --no-opt --no-pack
optimise pkg/zdr_embed_bg.wasm

say "wasm-pack build (classic script for the drop-in file)"
wasm-pack --quiet build --profile wasm-release --target no-modules --out-dir target/dropin --out-name zdr_embed --no-opt --no-pack
optimise target/dropin/zdr_embed_bg.wasm
node scripts/build-dropin.mjs target/dropin pkg/zdr_embed_widget.js

node scripts/size-report.mjs
