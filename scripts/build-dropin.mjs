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
// one character per byte, not as base64: the bytes keep their alignment, so
// gzip finds the module's own repetitions (45.6 KB against base64's 50.9 KB
// gzip -9 for the same 92 KB module). The 93 most frequent byte values are
// written as the printable ASCII characters (all but ' and \), the rest as
// \xNN, and a 256-character table turns each character back into its byte:
// written as themselves, only 45 % of the bytes were printable and the rest
// took four characters each; ranked, 95 % take one (the drop-in 50.4 -> 45.2 KB
// gzip -9). The file stays ASCII whatever charset a page gives it.
//
// The module and its glue are the ES module's (pkg/service/), the glue
// bundled into the script by rolldown with only what the script calls
// (initSync, the four functions): the asynchronous init that fetches a
// .wasm, which a wasm-bindgen `no-modules` glue keeps, is left out (0.5 KB
// gzip), and the module is built once for both.
//
// usage: node scripts/build-dropin.mjs <the ES service module's dir> <output file>
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { rolldown } from 'rolldown';
import { minify } from 'terser';

const NAME = 'zdr_embed_service';
const [dir, output] = process.argv.slice(2);
if (!dir || !output) {
  console.error('usage: build-dropin.mjs <the ES service module\'s dir> <output file>');
  process.exit(2);
}
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const glue = await classicGlue(resolve(dir, `${NAME}.js`));
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

/**
 * The ES glue at `path` as a classic script's `var wasm_bindgen = ...`,
 * with only what the drop-in calls.
 */
async function classicGlue(path) {
  const ENTRY = '\0dropin-entry';
  const bundle = await rolldown({
    input: ENTRY,
    plugins: [
      {
        name: 'dropin-entry',
        resolveId: (id) => (id === ENTRY ? id : null),
        load: (id) =>
          id === ENTRY
            ? `export { initSync, render, renderMultiple, preload, __setEngineLoader } from ${JSON.stringify(path)};`
            : null,
      },
    ],
  });
  try {
    const { output: [chunk] } = await bundle.generate({ format: 'iife', name: 'wasm_bindgen' });
    if (/import\.meta/.test(chunk.code)) throw new Error(`${path}: the drop-in's glue still names import.meta`);
    const { code } = await minify(chunk.code, { compress: true, mangle: true, format: { ascii_only: true } });
    return code;
  } finally {
    await bundle.close();
  }
}

/** Character codes 0-255 as the body of a '...' JavaScript string literal, in ASCII. */
function byteString(codes) {
  let text = '';
  for (const code of codes) {
    if (code === 0x5c) text += '\\\\';
    else if (code === 0x27 || code < 0x20 || code >= 0x7f) text += `\\x${code.toString(16).padStart(2, '0')}`;
    else text += String.fromCharCode(code);
  }
  return text;
}

/**
 * Each byte value's character code, most frequent bytes first on the codes
 * written as one character (printable ASCII but ' and \), and `table`, whose
 * character at a code is the byte it stands for.
 */
function rankedCodes(bytes) {
  const count = new Array(256).fill(0);
  for (const byte of bytes) count[byte] += 1;
  const byFrequency = [...count.keys()].sort((a, b) => count[b] - count[a] || a - b);
  const single = [...count.keys()].filter((c) => c >= 0x20 && c < 0x7f && c !== 0x27 && c !== 0x5c);
  const codes = [...single, ...[...count.keys()].filter((c) => !single.includes(c))];
  const codeOf = new Array(256);
  const table = new Array(256);
  byFrequency.forEach((byte, rank) => {
    codeOf[byte] = codes[rank];
    table[codes[rank]] = byte;
  });
  return { codeOf, table };
}
const { codeOf, table } = rankedCodes(wasm);

// The script is minified whole (the element's comments, the loader's) with
// the two strings as placeholders, put in afterwards: terser must not
// rewrite their escapes.
const PLACEHOLDERS = { __ZDR_WASM__: byteString(Array.from(wasm, (byte) => codeOf[byte])), __ZDR_BYTE__: byteString(table) };
const source = `/*! zdr-embed ${version}: drop-in ServiceZDREmbed widget (Rust + WebAssembly). */
(function () {
  'use strict';
  if (typeof window === 'undefined') return;
  if (window.ServiceZDREmbed && window.ServiceZDREmbed.engine === 'zdr-embed') return;
  // Only while the script first runs does the document say which script it is.
  var SCRIPT_SRC = document.currentScript && document.currentScript.src;
${glue}
  var WASM = __ZDR_WASM__;
  var BYTE = __ZDR_BYTE__;
  var bytes = new Uint8Array(WASM.length);
  for (var i = 0; i < WASM.length; i++) bytes[i] = BYTE.charCodeAt(WASM.charCodeAt(i));
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
    // Every chunk of card kinds too, or those named (js/zdr_embed.js's preload).
    preload: function (kinds) {
      return wasm_bindgen.preload().then(function () {
        return import(new URL('engine/zdr_engine.js', SCRIPT_SRC).href);
      }).then(function (engine) {
        return engine.loadKinds(kinds == null ? null : kinds);
      });
    },
    version: '${version}',
    engine: 'zdr-embed',
  });
${element.replace(/^export /m, '')}
  defineZdrEmbed({ render: wasm_bindgen.render, ready: function () { return Promise.resolve(); } });
})();
`;
const { code } = await minify(source, { compress: true, mangle: true, format: { ascii_only: true } });
let script = code;
for (const [name, text] of Object.entries(PLACEHOLDERS)) {
  if (script.split(name).length !== 2) {
    console.error(`build-dropin: the minified script names ${name} ${script.split(name).length - 1} times, not once`);
    process.exit(1);
  }
  script = script.replace(name, () => `'${text}'`);
}
writeFileSync(output, `${script}\n`);
