#!/usr/bin/env bash
# Builds the npm package into pkg/ (the layout is the contract of issue 14):
#   pkg/service/zdr_embed_service{.js,_bg.wasm,.d.ts}  the service module (root crate)
#   pkg/engine/zdr_engine{.js,_bg.wasm,.d.ts}          the engine module (crates/engine)
#   pkg/zdr_embed.js, pkg/zdr_embed.d.ts               the entry (js/, with the service
#                                                      module's glue inlined)
#   pkg/zdr_embed_widget.js                            the drop-in script (service only)
#   pkg/react.js, pkg/vue.js, pkg/svelte/              the framework components (js/)
# then prints their sizes. A page that only posts to the service loads the
# entry and the service's .wasm; the engine is fetched the first time a card
# is drawn in the page.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
ensure_build_tools

# Rust >= 1.82 emits these features; wasm-opt must be told, never the compiler untold.
WASM_FEATURES=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-reference-types
  --enable-sign-ext --enable-mutable-globals --enable-multivalue)
# The service module (ES and drop-in): -ocimfs 20 inlines a function of one
# caller only when tiny, which gzip likes better than -ocimfs 150 (the
# engine's, below): 0.3 KB; --converge and --low-memory-unused (as for the
# engine, below) 0.2 KB more.
optimise() { wasm-opt -ocimfs 20 -Oz --converge --low-memory-unused "${WASM_FEATURES[@]}" --strip-debug --strip-producers "$1" -o "$1"; }
# wasm-bindgen's glue is written to be read (comments, long local names):
# terser takes about a third off it gzipped (service 8.4 -> 5.6 KB). Exported
# names stay, top-level names of a classic script too (the drop-in's
# wasm_bindgen), and strings stay ASCII.
minify() { # file [--module]
  terser "$1" ${2:-} --compress --mangle --format ascii_only=true --output "$1.min" && mv "$1.min" "$1"
}
# One module: the crate's library for wasm32 in the size profile, then its
# JS glue and types. No wasm-opt yet (each module is optimised below), and
# nothing else (the package is this repository's package.json).
build() { # package out-dir out-name target [cargo args]
  cargo build --quiet --lib -p "$1" --profile wasm-release --target wasm32-unknown-unknown "${@:5}"
  wasm-bindgen --target "$4" --out-dir "$2" --out-name "$3" \
    "target/wasm32-unknown-unknown/wasm-release/${1//-/_}.wasm"
}

# Files of earlier layouts must not be packed by mistake, and a .gitignore an
# earlier wasm-pack left in pkg/ would keep npm pack from packing its folders.
rm -rf pkg/service pkg/engine pkg/zdr_embed_bg.wasm pkg/zdr_embed_bg.wasm.d.ts pkg/.gitignore
mkdir -p pkg

say "build: the service module (ES module)"
build zdr-embed pkg/service zdr_embed_service web
optimise pkg/service/zdr_embed_service_bg.wasm
minify pkg/service/zdr_embed_service.js --module
# The service path's budget: import names and closure shims' hashed names
# made short in the module and its glue together (service path 42.6 -> 39.6 KB gzip).
node scripts/shorten-wasm-names.mjs pkg/service/zdr_embed_service_bg.wasm \
  pkg/service/zdr_embed_service.js pkg/service/zdr_embed_service_bg.wasm.d.ts

if [ -f crates/engine/Cargo.toml ]; then
  say "build: the engine module (ES module): its core and a chunk per group of card kinds"
  # With the feature "chunks" (crates/engine/src/chunks.rs) and relocations
  # kept for the splitter: `cargo rustc` gives the link flag to the engine's
  # own link only, so its dependencies are the ones built without it.
  cargo rustc --quiet --lib -p zdr-engine --profile wasm-release --target wasm32-unknown-unknown \
    --features allocator,chunks -- -C link-args=--emit-relocs
  rm -rf target/engine-split pkg/engine
  "$(wasm_split_bin)" --target web --out-name zdr_engine \
    target/wasm32-unknown-unknown/wasm-release/zdr_engine.wasm target/engine-split
  # Its exports that the chunks import (memory, the function table, what the
  # core shares with them) stay: --keep-lld-exports.
  wasm-bindgen --target web --keep-lld-exports --out-dir pkg/engine --out-name zdr_engine \
    target/engine-split/zdr_engine.wasm
  # The core's budget: -Oz, then flattening and re-looping before -Oz again,
  # repeated until nothing shrinks, is 1.4 KB gzip smaller than -Oz alone
  # (the first -Oz gives the re-looper smaller functions: 0.4 KB); the
  # import and closure-shim names made short as for the service (3.4 KB).
  # --low-memory-unused: no pointer of the module points into its first KB (Rust puts
  # the stack first, growing down to 0, so only a stack all but exhausted would reach it,
  # as Emscripten assumes by default), which lets offsets fold into loads: 1 KB gzip.
  # -ocimfs 150: a function of one caller is inlined into it only when small.
  # A browser compiles each wasm function whole on its first call, and -Oz
  # had folded every card kind's layout into one 64 KB function (and the
  # like elsewhere), all compiled for a page's first line card: the first
  # card's lazy compilation went from 21 to 16 ms, and the module is 0.6 KB
  # gzip smaller (docs/benchmarks.md, "Small cards first").
  wasm-opt -ocimfs 150 -Oz --flatten --rereloop -Oz --converge --low-memory-unused "${WASM_FEATURES[@]}" --strip-debug --strip-producers \
    pkg/engine/zdr_engine_bg.wasm -o pkg/engine/zdr_engine_bg.wasm
  # js/columns.js (local mode's column extraction) into the glue: two files, as before.
  node scripts/inline-snippets.mjs pkg/engine/zdr_engine.js
  minify pkg/engine/zdr_engine.js --module
  node scripts/shorten-wasm-names.mjs pkg/engine/zdr_engine_bg.wasm \
    pkg/engine/zdr_engine.js pkg/engine/zdr_engine_bg.wasm.d.ts
  node scripts/engine-chunks.mjs target/engine-split pkg/engine "${WASM_FEATURES[@]}"
else
  say "crates/engine is missing: no engine module built"
fi

say "the package's entry (js/), the service module's glue inlined"
cp js/zdr_embed.js js/zdr_embed.d.ts js/zdr_embed_element.js js/zdr_embed_element.d.ts js/zdr_embed_widget.d.ts js/element.js pkg/
# The framework components (zdr-embed/react, /vue, /svelte), as they are:
# an app's bundler compiles and minifies them with the app.
cp js/components.js js/react.js js/react.d.ts js/vue.js js/vue.d.ts pkg/
mkdir -p pkg/svelte
cp js/svelte/index.js js/svelte/index.d.ts js/svelte/action.js js/svelte/ZdrChart.svelte pkg/svelte/
# One module before the service's .wasm, not two in a row (scripts/bundle-entry.mjs).
node scripts/bundle-entry.mjs pkg/zdr_embed.js
# Every page loads the entry: its comments stay in js/ (673 -> 241 B gzip).
minify pkg/zdr_embed.js --module
minify pkg/zdr_embed_element.js --module
minify pkg/element.js --module

say "the drop-in script: the service module and the part of its glue it calls, in one classic script"
node scripts/build-dropin.mjs pkg/service pkg/zdr_embed_widget.js

# The files a page's first card runs, most of their functions on that first
# call (the service module's glue through the entry, or alone): marked so,
# V8 compiles a file's functions as it streams in, on a background thread,
# instead of each one on the main thread the first time it is called
# (Chrome 136+; other browsers read a comment). Prepended last: terser
# would drop it. The cold first card: 10–29 ms sooner
# (docs/benchmarks.md, "Small cards first", change 9).
say "compile hints for the entry and the two modules' glue"
for f in pkg/zdr_embed.js pkg/service/zdr_embed_service.js pkg/engine/zdr_engine.js; do
  { printf '//# allFunctionsCalledOnLoad\n'; cat "$f"; } > "$f.hinted" && mv "$f.hinted" "$f"
done

# The files only: what each page downloads needs a browser (scripts/test.sh runs it).
node scripts/size-report.mjs --files
