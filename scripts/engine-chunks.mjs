// Finishes the engine's chunks for the package (scripts/build.sh runs it
// after wasm-split-cli has cut the engine module, see crates/engine/src/chunks.rs):
// each chunk optimised by wasm-opt, named by its content's hash
// (kinds-<group>.<hash>.wasm: immutable, cacheable forever), and the
// splitter's loader (__wasm_split.js, which the engine's glue imports)
// rewritten to those names and minified.
//
// The loader fetches a chunk as the glue fetches the core: fetch(new URL(…,
// import.meta.url)) and WebAssembly.instantiateStreaming, so the
// Content-Security-Policy a page needs is unchanged and a bundler copies the
// files; served as a plain folder, the browser resolves them beside it.
//
// usage: node scripts/engine-chunks.mjs <split-dir> <out-dir> <wasm-opt feature flags…>
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [splitDir, outDir, ...features] = process.argv.slice(2);
if (!splitDir || !outDir) {
  console.error('usage: engine-chunks.mjs <split-dir> <out-dir> <wasm-opt feature flags…>');
  process.exit(2);
}

const fail = (message) => {
  console.error(`engine-chunks: ${message}`);
  process.exit(1);
};

// A chunk from the build before this one must not be packed.
for (const file of readdirSync(outDir)) {
  if (/^kinds-.*\.wasm$/.test(file)) rmSync(join(outDir, file));
}

let loader = readFileSync(join(splitDir, '__wasm_split.js'), 'utf8');
const chunks = readdirSync(splitDir).filter((file) => /^(split|chunk)_.*\.wasm$/.test(file));
if (chunks.length === 0) fail(`no chunk in ${splitDir}: was the engine built with the feature "chunks"?`);
for (const file of chunks) {
  if (file.startsWith('chunk_')) {
    fail(`${file} is code shared by several groups in a chunk of its own: the patched splitter (scripts/wasm-split-shared-in-main.patch) keeps such code in the core`);
  }
  const optimised = join(outDir, `${file}.tmp`);
  execFileSync('wasm-opt', ['-Oz', ...features, '--strip-debug', '--strip-producers', join(splitDir, file), '-o', optimised]);
  const bytes = readFileSync(optimised);
  rmSync(optimised);
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  const name = `kinds-${file.slice('split_'.length, -'.wasm'.length)}.${hash}.wasm`;
  writeFileSync(join(outDir, name), bytes);
  const quoted = `"./${file}"`;
  if (loader.split(quoted).length !== 2) fail(`the loader does not name ${file} exactly once`);
  loader = loader.replace(quoted, `"./${name}"`);
}
const loaderPath = join(outDir, '__wasm_split.js');
writeFileSync(loaderPath, loader);
execFileSync('terser', [loaderPath, '--module', '--compress', '--mangle', '--format', 'ascii_only=true', '--output', loaderPath]);
console.log(`engine-chunks: ${chunks.length} chunks written to ${outDir}`);
