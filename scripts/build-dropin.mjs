// Builds the drop-in file zdr_embed_widget.js: one classic script that defines
// window.ServiceZDREmbed as soon as it has run, like the service's own widget.
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

const [dir, output] = process.argv.slice(2);
if (!dir || !output) {
  console.error('usage: build-dropin.mjs <no-modules build dir> <output file>');
  process.exit(2);
}
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const glue = readFileSync(join(dir, 'zdr_embed.js'), 'utf8');
const wasm = readFileSync(join(dir, 'zdr_embed_bg.wasm'));
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
  window.ServiceZDREmbed = Object.freeze({
    render: wasm_bindgen.render,
    renderMultiple: wasm_bindgen.renderMultiple,
    version: '${version}',
    engine: 'zdr-embed',
  });
})();
`;
writeFileSync(output, script);
