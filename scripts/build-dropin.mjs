// Builds the drop-in file zdr_embed_widget.js: one classic script that defines
// window.ServiceZDREmbed as soon as it has run, like the service's own widget.
//
// It carries the service module only (options, frames, the form post, the
// postMessage client): a page that posts to the service downloads nothing
// more. The engine module (local and auto drawing, toPNG/toSVG) is fetched
// the first time a card is drawn in the page, from engine/zdr_engine.js
// beside this script's own URL, as the package lays it out.
//
// The WebAssembly module travels inside the script as base64 and is compiled
// with the synchronous `new WebAssembly.Module` (allowed on the main thread up
// to 8 MB in current browsers), so an inline script right after the tag can
// call ServiceZDREmbed.render() at once. The cost is about a third more bytes
// before compression, and one script to host instead of two files.
//
// usage: node scripts/build-dropin.mjs <no-modules build dir> <output file>
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const NAME = 'zdr_embed_service';
const [dir, output] = process.argv.slice(2);
if (!dir || !output) {
  console.error('usage: build-dropin.mjs <no-modules build dir> <output file>');
  process.exit(2);
}
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const glue = readFileSync(join(dir, `${NAME}.js`), 'utf8');
const wasm = readFileSync(join(dir, `${NAME}_bg.wasm`));
const SYNC_COMPILE_LIMIT = 8 * 1024 * 1024;
if (wasm.length > SYNC_COMPILE_LIMIT) {
  console.error(`the module is ${wasm.length} bytes, over the ${SYNC_COMPILE_LIMIT} bytes browsers compile synchronously`);
  process.exit(1);
}

const script = `/*! zdr-embed ${version}: drop-in ServiceZDREmbed widget (Rust + WebAssembly). */
(function () {
  'use strict';
  if (typeof window === 'undefined') return;
  if (window.ServiceZDREmbed && window.ServiceZDREmbed.engine === 'zdr-embed') return;
  // Only while the script first runs does the document say which script it is.
  var SCRIPT_SRC = document.currentScript && document.currentScript.src;
${glue}
  var WASM_BASE64 = '${wasm.toString('base64')}';
  function decode(text) {
    if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(text);
    var binary = atob(text);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }
  wasm_bindgen.initSync({ module: decode(WASM_BASE64) });
  wasm_bindgen.__setEngineLoader(function () {
    if (!SCRIPT_SRC) {
      return Promise.reject(new Error(
        'zdr-embed: the drop-in script was not loaded by a <script src> tag, so the engine ' +
        '(engine/zdr_engine.js beside it) cannot be found; load it with <script src>, or use the npm package'));
    }
    return import(new URL('engine/zdr_engine.js', SCRIPT_SRC).href);
  });
  window.ServiceZDREmbed = Object.freeze({
    render: wasm_bindgen.render,
    renderMultiple: wasm_bindgen.renderMultiple,
    preload: wasm_bindgen.preload,
    version: '${version}',
    engine: 'zdr-embed',
  });
})();
`;
writeFileSync(output, script);
