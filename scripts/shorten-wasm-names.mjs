// Shortens the names wasm-bindgen gives the service module's imports (88
// functions named like __wbg_getElementById_7ee213db584f37b0) and its
// closure shims' exports, in the module and in its glue alike.
//
// Each name is written twice, once in the module and once in the glue, and
// its 16 hex digits of hash are noise to gzip: about 1.5 KB of the service
// path's 40 KB budget. wasm-opt's --minify-imports-and-exports cannot be used,
// since it renames the module alone and the glue must then be rewritten by
// hand; this script does both together and refuses to write anything when
// the glue does not name each import exactly once.
//
// The module's target_features section (what rustc enabled; no browser reads
// it) is left out too: 105 B gzip.
//
// The engine's imports of its chunk loader (./__wasm_split.js, written by
// wasm-split-cli: scripts/engine-chunks.mjs) keep their module and names.
//
// Run after wasm-opt and terser (build.sh); the module then imports from a
// module named "a" with fields "a", "b", ..., and the glue's import object
// says the same.
//
// usage: node scripts/shorten-wasm-names.mjs <module_bg.wasm> <glue.js> [<module_bg.wasm.d.ts>]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const [wasmPath, gluePath, typesPath] = process.argv.slice(2);
if (!wasmPath || !gluePath) {
  console.error('usage: shorten-wasm-names.mjs <module_bg.wasm> <glue.js> [<module_bg.wasm.d.ts>]');
  process.exit(2);
}

function fail(message) {
  console.error(`shorten-wasm-names: ${message}; nothing was written`);
  process.exit(1);
}

// Exports wasm-bindgen names with a symbol hash (closure shims); the others
// (render, memory, __wbindgen_malloc, ...) keep their names.
const HASHED_EXPORT = /__h[0-9a-f]{16}$/;
const IDENT_CHAR = /[\w$]/;

/** "a", "b", ..., "Z", "aa", ...: names no glue identifier is compared with (they are property keys). */
function shortName(index) {
  const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let name = '';
  let rest = index;
  do {
    name = ALPHABET[rest % ALPHABET.length] + name;
    rest = Math.floor(rest / ALPHABET.length) - 1;
  } while (rest >= 0);
  return name;
}

class Reader {
  constructor(bytes, at = 0) {
    this.bytes = bytes;
    this.at = at;
  }
  byte() {
    if (this.at >= this.bytes.length) fail('the module ends in the middle of a section');
    return this.bytes[this.at++];
  }
  u32() {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = this.byte();
      result += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) return result;
      shift += 7;
      if (shift > 35) fail('a LEB128 number is too long');
    }
  }
  name() {
    const length = this.u32();
    const start = this.at;
    this.at += length;
    if (this.at > this.bytes.length) fail('a name runs past the module');
    return Buffer.from(this.bytes.subarray(start, this.at)).toString('utf8');
  }
  limits() {
    const flags = this.byte();
    this.u32();
    if (flags & 1) this.u32();
  }
}

function u32Bytes(value) {
  const out = [];
  let rest = value;
  do {
    let byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
    if (rest) byte |= 0x80;
    out.push(byte);
  } while (rest);
  return out;
}

function nameBytes(text) {
  const utf8 = Buffer.from(text, 'utf8');
  return [...u32Bytes(utf8.length), ...utf8];
}

const wasm = readFileSync(wasmPath);
if (wasm.readUInt32LE(0) !== 0x6d736100) fail(`${wasmPath} is not a WebAssembly module`);

const CHUNK_LOADER = './__wasm_split.js';
const renamed = new Map(); // old name -> new name, imports' fields and hashed exports
let moduleName = null;
const sections = [wasm.subarray(0, 8)];
const reader = new Reader(wasm, 8);
while (reader.at < wasm.length) {
  const id = reader.byte();
  const size = reader.u32();
  const start = reader.at;
  const end = start + size;
  if (end > wasm.length) fail('a section runs past the module');
  let body = wasm.subarray(start, end);
  if (id === 2) {
    // Imports: every field gets a short name; every module must be the one
    // glue, but for the chunk loader's, written as they are.
    const section = new Reader(wasm, start);
    const count = section.u32();
    const out = [...u32Bytes(count)];
    for (let i = 0; i < count; i++) {
      const module = section.name();
      const field = section.name();
      if (module === CHUNK_LOADER) {
        const descStart = section.at;
        if (section.byte() !== 0x00) fail(`the chunk loader's import ${field} is not a function`);
        section.u32();
        out.push(...nameBytes(module), ...nameBytes(field), ...wasm.subarray(descStart, section.at));
        continue;
      }
      if (moduleName === null) moduleName = module;
      if (module !== moduleName) fail(`imports come from two modules (${moduleName}, ${module})`);
      const descStart = section.at;
      const kind = section.byte();
      if (kind === 0x00) section.u32();
      else if (kind === 0x01) { section.byte(); section.limits(); }
      else if (kind === 0x02) section.limits();
      else if (kind === 0x03) { section.byte(); section.byte(); }
      else if (kind === 0x04) { section.byte(); section.u32(); }
      else fail(`import ${field} has an unknown kind ${kind}`);
      if (renamed.has(field)) fail(`two imports are named ${field}`);
      const short = shortName(renamed.size);
      renamed.set(field, short);
      out.push(...nameBytes('a'), ...nameBytes(short), ...wasm.subarray(descStart, section.at));
    }
    if (section.at !== end) fail('the import section has bytes after its imports');
    body = Buffer.from(out);
  } else if (id === 7) {
    const section = new Reader(wasm, start);
    const count = section.u32();
    const out = [...u32Bytes(count)];
    for (let i = 0; i < count; i++) {
      const name = section.name();
      const descStart = section.at;
      section.byte();
      section.u32();
      let written = name;
      if (HASHED_EXPORT.test(name)) {
        written = `_${shortName(renamed.size)}`;
        renamed.set(name, written);
      }
      out.push(...nameBytes(written), ...wasm.subarray(descStart, section.at));
    }
    if (section.at !== end) fail('the export section has bytes after its exports');
    body = Buffer.from(out);
  }
  reader.at = end;
  // The compiler's note of the features it used: browsers never read it.
  if (id === 0 && new Reader(wasm, start).name() === 'target_features') continue;
  sections.push(Buffer.from([id, ...u32Bytes(body.length)]), body);
}
if (moduleName === null) fail('the module imports nothing');

/** `text` with every whole-token `from` replaced; the count of replacements. */
function replaceToken(text, from, to) {
  let count = 0;
  let out = '';
  let at = 0;
  for (;;) {
    const found = text.indexOf(from, at);
    if (found < 0) break;
    const before = found > 0 ? text[found - 1] : '';
    const after = text[found + from.length] ?? '';
    if (!IDENT_CHAR.test(before) && !IDENT_CHAR.test(after)) {
      out += text.slice(at, found) + to;
      count++;
    } else {
      out += text.slice(at, found + from.length);
    }
    at = found + from.length;
  }
  return { text: out + text.slice(at), count };
}

let glue = readFileSync(gluePath, 'utf8');
for (const [from, to] of renamed) {
  const result = replaceToken(glue, from, to);
  if (result.count === 0) fail(`the glue never names ${from}`);
  // An import is a key of the import object, once; an export may be called from a few places.
  if (!from.match(HASHED_EXPORT) && result.count !== 1) fail(`the glue names the import ${from} ${result.count} times`);
  glue = result.text;
}
// The import object's key for the module, written once by the glue.
const quotedModule = `"${moduleName}"`;
const keyCount = glue.split(quotedModule).length - 1;
if (keyCount !== 1) fail(`the glue names the import module ${quotedModule} ${keyCount} times`);
glue = glue.replace(quotedModule, '"a"');

writeFileSync(wasmPath, Buffer.concat(sections));
writeFileSync(gluePath, glue);
if (typesPath && existsSync(typesPath)) {
  let types = readFileSync(typesPath, 'utf8');
  for (const [from, to] of renamed) {
    if (HASHED_EXPORT.test(from)) types = replaceToken(types, from, to).text;
  }
  writeFileSync(typesPath, types);
}
console.log(`shorten-wasm-names: ${renamed.size} names in ${wasmPath} and ${gluePath}`);
