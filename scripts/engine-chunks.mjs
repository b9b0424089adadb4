// Finishes the engine's chunks for the package (scripts/build.sh runs it
// after wasm-split-cli has cut the engine module, see crates/engine/src/chunks.rs,
// crates/engine/src/canvas/interest.rs and crates/engine/src/shell.rs):
// each chunk optimised by wasm-opt, named by its content's hash
// (kinds-<group>.<hash>.wasm for a group of card kinds, interact.<hash>.wasm
// and shell.<hash>.wasm: immutable, cacheable forever), and the
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
  if (/^(kinds-.*|interact\..*|shell\..*)\.wasm$/.test(file)) rmSync(join(outDir, file));
}

let loader = readFileSync(join(splitDir, '__wasm_split.js'), 'utf8');
// The chunks that are no group of card kinds: the interaction and the shell.
const PARTS = ['interact', 'shell'];
const groups = new Set(Object.values(kindGroups()));
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
  const point = file.slice('split_'.length, -'.wasm'.length);
  if (!groups.has(point) && !PARTS.includes(point)) fail(`${file}: a split point that is neither a group of card kinds nor one of ${PARTS.join(', ')}`);
  const name = `${groups.has(point) ? `kinds-${point}` : point}.${hash}.wasm`;
  writeFileSync(join(outDir, name), bytes);
  const quoted = `"./${file}"`;
  if (loader.split(quoted).length !== 2) fail(`the loader does not name ${file} exactly once`);
  loader = loader.replace(quoted, `"./${name}"`);
}
loader = withPrefetch(loader, chunks.map((file) => file.slice('split_'.length, -'.wasm'.length)));
const loaderPath = join(outDir, '__wasm_split.js');
writeFileSync(loaderPath, loader);
execFileSync('terser', [loaderPath, '--module', '--compress', '--mangle', '--format', 'ascii_only=true', '--output', loaderPath]);
console.log(`engine-chunks: ${chunks.length} chunks written to ${outDir}`);

/**
 * The loader made able to start a chunk before the engine asks for it: the
 * entry knows a local card's kind when `render` is called, before the core
 * has arrived, and `prefetch(kind)` fetches and compiles that kind's chunk
 * beside the core instead of after it (one round trip less before the
 * card). Each chunk is compiled once, by whichever comes first (a failure is
 * forgotten, so that the next card tries again); its `new URL("./…",
 * import.meta.url)` stays a literal, which bundlers look for.
 */
function withPrefetch(text, names) {
  const fetcher =
    /const src = fetch\((new URL\("\.\/[\w.-]+\.wasm", import\.meta\.url\))\);\s*src\.catch\(\(\) => \{\}\);\s*return async \(imports\) => \(WebAssembly\.instantiateStreaming\(src, imports\)\);/g;
  const urls = [];
  const rewritten = text.replace(fetcher, (_, url) => {
    const name = names.find((n) => url.includes(`"./kinds-${n}.`) || url.includes(`"./${n}.`));
    if (!name) fail(`the loader fetches ${url}, which is no chunk of this build`);
    urls.push(`${JSON.stringify(name)}: () => ${url}`);
    return `const src = compiled(${JSON.stringify(name)});\n    return async (imports) => WebAssembly.instantiate(await src, imports);`;
  });
  if (urls.length !== names.length) fail(`the loader's fetch of ${names.length - urls.length} chunks is not the form this script rewrites (wasm-split-cli changed?)`);
  const kinds = kindGroups();
  for (const point of [...new Set(Object.values(kinds)), ...PARTS]) {
    if (!names.includes(point)) fail(`${point} has no chunk (split points: ${names.join(', ')})`);
  }
  return `${rewritten}
const CHUNKS = { ${urls.join(', ')} };
const KINDS = ${JSON.stringify(kinds)};
const compiling = new Map();
function compiled(name) {
  let module = compiling.get(name);
  if (!module) {
    module = WebAssembly.compileStreaming(fetch(CHUNKS[name]()));
    compiling.set(name, module);
    module.catch(() => {
      if (compiling.get(name) === module) compiling.delete(name);
    });
  }
  return module;
}
/** Starts fetching and compiling the chunk of a card type (\`viz_component_type\`); an unknown name does nothing. */
export function prefetch(kind) {
  if (Object.hasOwn(KINDS, kind)) compiled(KINDS[kind]).catch(() => {});
}
`;
}

/** Each card type's group, from zdr-chart's one table of them (\`card_kinds!\`). */
function kindGroups() {
  const registry = readFileSync(new URL('../crates/chart/src/model/registry.rs', import.meta.url), 'utf8');
  const table = registry.match(/^card_kinds! \{\n([^}]*)\n\}/m);
  if (!table) fail('crates/chart/src/model/registry.rs has no card_kinds! table');
  const kinds = {};
  for (const line of table[1].split('\n')) {
    const entry = line.match(/^\s*\w+ = "([a-z_]+)" in (\w+),$/);
    if (!entry) fail(`card_kinds!: cannot read ${JSON.stringify(line)}`);
    kinds[entry[1]] = entry[2].toLowerCase();
  }
  return kinds;
}
