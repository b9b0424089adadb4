// Prints the size of what a page downloads: raw, gzip -9 and brotli bytes.
// With --check it also holds each file to its gzip budget and exits 1 when a
// file is over it or missing (scripts/test.sh runs it so); the budgets sit
// about 2% above the sizes of issue 13's build and come down as the engine
// moves into a module of its own (see README "Size").
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

const check = process.argv.includes('--check');

// [path, label, gzip -9 budget in bytes]
const files = [
  ['pkg/zdr_embed_bg.wasm', 'WebAssembly module', 275_000],
  ['pkg/zdr_embed.js', 'ES module glue', 9_500],
  ['pkg/zdr_embed_widget.js', 'drop-in script (glue + module)', 357_000],
];
const over = [];
const bytes = (n) => `${n.toLocaleString('en-US')} B`.padStart(12);
console.log('size report'.padEnd(34) + 'raw'.padStart(12) + 'gzip -9'.padStart(12) + 'brotli'.padStart(12));
for (const [path, label, budget] of files) {
  if (!existsSync(path)) {
    console.log(`${label.padEnd(34)}(missing: ${path})`);
    over.push(`${path} is missing: run scripts/build.sh first`);
    continue;
  }
  const data = readFileSync(path);
  const gzip = gzipSync(data, { level: 9 }).length;
  const brotli = brotliCompressSync(data, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
  }).length;
  console.log(label.padEnd(34) + bytes(data.length) + bytes(gzip) + bytes(brotli) + `   ${path}`);
  if (gzip > budget) {
    over.push(`${path} is ${gzip.toLocaleString('en-US')} B gzipped, over its budget of ${budget.toLocaleString('en-US')} B`);
  }
}
if (check) {
  for (const line of over) console.error(`size budget: ${line}`);
  if (over.length > 0) process.exit(1);
  console.log('size budgets: every file within its gzip budget');
}
