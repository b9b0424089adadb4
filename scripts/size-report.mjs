// Prints the size of what a page downloads, raw, gzip -9 and brotli (q 11),
// file by file and for each of the three things a page may load: the service
// module with its glue and the entry (every page), the drop-in script (instead
// of those), the engine module with its glue (pages that draw cards
// themselves). With --check it holds each group to its gzip -9 budget
// (issue 14) and exits 1 when one is over it or a file is missing
// (scripts/test.sh runs it so).
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

const check = process.argv.includes('--check');

// Each file is served and compressed on its own, so a group's size is the
// sum of its files' compressed sizes.
const groups = [
  {
    // The entry carries the service module's glue (scripts/bundle-entry.mjs).
    label: 'service module + entry with its glue',
    budget: 42_250,
    files: ['pkg/service/zdr_embed_service_bg.wasm', 'pkg/zdr_embed.js'],
  },
  { label: 'drop-in script (service only)', budget: 51_500, files: ['pkg/zdr_embed_widget.js'] },
  {
    label: 'engine module + glue (with maps)',
    budget: 211_000,
    files: ['pkg/engine/zdr_engine_bg.wasm', 'pkg/engine/zdr_engine.js'],
  },
];

const sizes = (data) => ({
  raw: data.length,
  gzip: gzipSync(data, { level: 9 }).length,
  brotli: brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
});
const bytes = (n) => `${n.toLocaleString('en-US')} B`.padStart(12);
const over = [];
console.log('size report'.padEnd(44) + 'raw'.padStart(12) + 'gzip -9'.padStart(12) + 'brotli'.padStart(12) + '   budget (gzip)');
for (const { label, budget, files } of groups) {
  const total = { raw: 0, gzip: 0, brotli: 0 };
  let missing = false;
  for (const path of files) {
    if (!existsSync(path)) {
      console.log(`  ${path.padEnd(42)}(missing)`);
      over.push(`${path} is missing: run scripts/build.sh first`);
      missing = true;
      continue;
    }
    const size = sizes(readFileSync(path));
    for (const key of Object.keys(total)) total[key] += size[key];
    console.log(`  ${path.padEnd(42)}${bytes(size.raw)}${bytes(size.gzip)}${bytes(size.brotli)}`);
  }
  const mark = missing ? '   (incomplete)' : `   ${budget.toLocaleString('en-US')} B${total.gzip > budget ? '  OVER' : ''}`;
  console.log(`${label.padEnd(44)}${bytes(total.raw)}${bytes(total.gzip)}${bytes(total.brotli)}${mark}`);
  if (!missing && total.gzip > budget) {
    over.push(`${label} is ${total.gzip.toLocaleString('en-US')} B gzipped, over its budget of ${budget.toLocaleString('en-US')} B`);
  }
}
if (check) {
  for (const line of over) console.error(`size budget: ${line}`);
  if (over.length > 0) process.exit(1);
  console.log('size budgets: every group within its gzip budget');
}
