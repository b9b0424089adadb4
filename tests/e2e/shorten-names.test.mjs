// scripts/shorten-wasm-names.mjs (build.sh runs it on the service module):
// the module and its glue renamed together still link and call the same
// functions, and a glue it cannot rewrite safely leaves both files untouched.
// A module written byte by byte here, so the test needs no build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const SCRIPT = new URL('../../scripts/shorten-wasm-names.mjs', import.meta.url).pathname;
const MODULE = './m_bg.js';
const LOG = '__wbg_log_0123456789abcdef';
const NOW = '__wbg_now_fedcba9876543210';
const SHIM = 'wasm_bindgen__convert__closures_____invoke__h0123456789abcdef';

const name = (text) => [text.length, ...Buffer.from(text)];
const section = (id, bytes) => [id, bytes.length, ...bytes];

/** Imports LOG and NOW, exports SHIM (calls LOG then NOW) and "run" (the same, a name kept). */
function module() {
  return Buffer.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 0, 0]),
    ...section(2, [2, ...name(MODULE), ...name(LOG), 0, 0, ...name(MODULE), ...name(NOW), 0, 0]),
    ...section(3, [1, 0]),
    ...section(7, [2, ...name(SHIM), 0, 2, ...name('run'), 0, 2]),
    ...section(10, [1, 6, 0, 0x10, 0, 0x10, 1, 0x0b]),
    ...section(0, [...name('target_features'), 1, 0x2b, ...name('sign-ext')]),
  ]);
}

function glue(extra = '') {
  return `export function imports(log) {
  return { __proto__: null, "${MODULE}": { ${LOG}: () => log.push("log"), ${NOW}: () => log.push("now") } };
}
export function shim(instance) { ${extra} return instance.exports.${SHIM}; }
`;
}

function files(glueText) {
  const dir = mkdtempSync(join(tmpdir(), 'shorten-'));
  const wasm = join(dir, 'm_bg.wasm');
  const js = join(dir, 'm.mjs');
  writeFileSync(wasm, module());
  writeFileSync(js, glueText);
  return { dir, wasm, js };
}

test('the renamed module and glue link and call the same functions', async () => {
  const { dir, wasm, js } = files(glue());
  try {
    execFileSync(process.execPath, [SCRIPT, wasm, js]);
    const bytes = readFileSync(wasm);
    const compiled = new WebAssembly.Module(bytes);
    assert.deepEqual(
      WebAssembly.Module.imports(compiled).map(({ module, name }) => `${module}.${name}`),
      ['a.a', 'a.b'],
    );
    const exports = WebAssembly.Module.exports(compiled).map((e) => e.name);
    assert.ok(exports.includes('run'), 'names without a hash are kept');
    assert.deepEqual(WebAssembly.Module.customSections(compiled, 'target_features'), []);
    assert.ok(!exports.includes(SHIM), 'the hashed shim is renamed');
    const text = readFileSync(js, 'utf8');
    for (const old of [LOG, NOW, SHIM, MODULE]) assert.ok(!text.includes(old), `${old} is left in the glue`);

    const rewritten = await import(pathToFileURL(js).href);
    const log = [];
    const instance = new WebAssembly.Instance(compiled, rewritten.imports(log));
    rewritten.shim(instance)();
    assert.deepEqual(log, ['log', 'now']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a glue naming an import twice is refused and nothing is written', () => {
  const original = glue(`void "${LOG}";`);
  const { dir, wasm, js } = files(original);
  try {
    const run = spawnSync(process.execPath, [SCRIPT, wasm, js], { encoding: 'utf8' });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /names the import __wbg_log_0123456789abcdef 2 times; nothing was written/);
    assert.deepEqual(readFileSync(wasm), module());
    assert.equal(readFileSync(js, 'utf8'), original);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
