// Builds the drop-in file zdr_embed_widget.js: one classic script that defines
// window.ServiceZDREmbed as soon as it has run, like the service's own widget.
//
// It carries the service module only (options, frames, the form post, the
// postMessage client): a page that posts to the service downloads nothing
// more. The engine module (local and auto drawing, toPNG/toSVG) is fetched
// the first time a card is drawn in the page, from engine/zdr_engine.js
// beside this script's own URL, as the package lays it out.
//
// The WebAssembly module travels inside the script and is compiled with the
// synchronous `new WebAssembly.Module` (allowed on the main thread up to 8 MB
// in current browsers), so an inline script right after the tag can call
// ServiceZDREmbed.render() at once. It is written as a string literal of
// one character per byte (printable ASCII as itself, the rest as \xNN), not
// as base64: the bytes keep their alignment, so gzip finds the module's own
// repetitions (45.6 KB against base64's 50.9 KB gzip -9 for the same
// 92 KB module), and the file stays ASCII whatever charset a page gives it.
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
// The <zdr-embed> element, inlined: js/element.js has no imports and one export.
const element = readFileSync(new URL('../js/element.js', import.meta.url), 'utf8');
if (element.match(/^export /gm)?.length !== 1 || /^import /m.test(element)) {
  console.error('js/element.js must have no imports and exactly one export (defineZdrEmbed)');
  process.exit(1);
}
const wasm = readFileSync(join(dir, `${NAME}_bg.wasm`));
const SYNC_COMPILE_LIMIT = 8 * 1024 * 1024;
if (wasm.length > SYNC_COMPILE_LIMIT) {
  console.error(`the module is ${wasm.length} bytes, over the ${SYNC_COMPILE_LIMIT} bytes browsers compile synchronously`);
  process.exit(1);
}

/** The bytes as the body of a '...' JavaScript string literal, in ASCII. */
function byteString(bytes) {
  let text = '';
  for (const byte of bytes) {
    if (byte === 0x5c) text += '\\\\';
    else if (byte === 0x27 || byte < 0x20 || byte >= 0x7f) text += `\\x${byte.toString(16).padStart(2, '0')}`;
    else text += String.fromCharCode(byte);
  }
  return text;
}

const script = `/*! zdr-embed ${version}: drop-in ServiceZDREmbed widget (Rust + WebAssembly). */
(function () {
  'use strict';
  if (typeof window === 'undefined') return;
  if (window.ServiceZDREmbed && window.ServiceZDREmbed.engine === 'zdr-embed') return;
  // Only while the script first runs does the document say which script it is.
  var SCRIPT_SRC = document.currentScript && document.currentScript.src;
${glue}
  var WASM = '${byteString(wasm)}';
  var bytes = new Uint8Array(WASM.length);
  for (var i = 0; i < WASM.length; i++) bytes[i] = WASM.charCodeAt(i);
  wasm_bindgen.initSync({ module: bytes });
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
${element.replace(/^export /m, '')}
  defineZdrEmbed({ render: wasm_bindgen.render, ready: function () { return Promise.resolve(); } });
})();
`;
writeFileSync(output, script);
