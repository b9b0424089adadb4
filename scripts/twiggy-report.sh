#!/usr/bin/env bash
# What each KB of the two WebAssembly modules is: for the service module and
# the engine module, the bytes per crate, twiggy's largest items and its
# dominator tree. The modules are those scripts/build.sh compiled
# (target/wasm32-unknown-unknown/wasm-release/), passed through wasm-bindgen
# and wasm-opt -Oz exactly as for the package but keeping their names (-g),
# so the code is the shipped code, byte for byte, plus a name section.
# Not run by scripts/test.sh.
#
# usage: bash scripts/build.sh && bash scripts/twiggy-report.sh > test-results/twiggy.txt
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
command -v twiggy >/dev/null || { say "cargo install twiggy --locked" >&2; cargo install twiggy --locked >&2; }

WASM_FEATURES=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-reference-types
  --enable-sign-ext --enable-mutable-globals --enable-multivalue)
OUT=target/size
mkdir -p "$OUT"

# Sums twiggy's items by what they belong to: the crate a function is from,
# data segments, wasm-bindgen's shims; the name section is left out (it is
# not shipped).
by_crate() {
  twiggy top -n 1000000 --format json "$1" | node -e '
    const items = JSON.parse(require("fs").readFileSync(0, "utf8"));
    const groups = new Map();
    let total = 0;
    for (const { name, shallow_size: size } of items) {
      if (/^"function names"|^custom section|^"local names"/.test(name)) continue;
      let group;
      if (/^data segment|^data\[/.test(name)) group = "(data: constants, strings, tables)";
      else if (/ shim\b|^__wbg|^__wbindgen|^wasm_bindgen::|^wasm-bindgen|^closure/.test(name)) group = "wasm-bindgen (glue, shims)";
      else if (/^(table|elem|type|import|export|global|memory|func)\[|^wasm magic|^header|section headers/.test(name)) group = "(module structure)";
      else {
        const m = /^<*(?:&(?:mut )?)?(?:dyn )?([A-Za-z_][A-Za-z0-9_]*)/.exec(name);
        group = m ? m[1] : "(other)";
      }
      groups.set(group, (groups.get(group) || 0) + size);
      total += size;
    }
    const rows = [...groups].sort((a, b) => b[1] - a[1]);
    for (const [group, size] of rows.slice(0, 25)) {
      console.log(`${size.toLocaleString("en-US").padStart(10)} B  ${(100 * size / total).toFixed(1).padStart(5)} %  ${group}`);
    }
    const rest = rows.slice(25).reduce((s, r) => s + r[1], 0);
    if (rest) console.log(`${rest.toLocaleString("en-US").padStart(10)} B  ${(100 * rest / total).toFixed(1).padStart(5)} %  (${rows.length - 25} others)`);
    console.log(`${total.toLocaleString("en-US").padStart(10)} B  100.0 %  total without names`);
  '
}

for module in service engine; do
  case "$module" in
    service) compiled=zdr_embed; shipped=pkg/service/zdr_embed_service_bg.wasm ;;
    engine) compiled=zdr_engine; shipped=pkg/engine/zdr_engine_bg.wasm ;;
  esac
  input="target/wasm32-unknown-unknown/wasm-release/$compiled.wasm"
  if [ ! -f "$input" ] || [ ! -f "$shipped" ]; then
    echo "$input or $shipped is missing: run scripts/build.sh first" >&2
    exit 1
  fi
  wasm-bindgen --keep-debug --target web --out-dir "$OUT/$module" "$input"
  wasm-opt -Oz -g "${WASM_FEATURES[@]}" "$OUT/$module/${compiled}_bg.wasm" -o "$OUT/$module.wasm"
  echo "=============================================================================="
  echo "$module module: $(stat -c %s "$shipped") B shipped ($shipped);"
  echo "  read with names: $OUT/$module.wasm ($(stat -c %s "$OUT/$module.wasm") B)"
  echo "=============================================================================="
  echo
  echo "--- bytes by crate (shallow sizes, raw, before compression)"
  by_crate "$OUT/$module.wasm"
  echo
  echo "--- twiggy top -n 25 (largest items, shallow size)"
  twiggy top -n 25 "$OUT/$module.wasm"
  echo
  echo "--- twiggy dominators -d 2 -r 30 (retained size: what goes if the item goes)"
  twiggy dominators -d 2 -r 30 "$OUT/$module.wasm"
  echo
done
