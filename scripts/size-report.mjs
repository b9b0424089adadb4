// Prints the size of what a page downloads: raw, gzip -9 and brotli bytes.
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

const files = [
  ['pkg/zdr_embed_bg.wasm', 'WebAssembly module'],
  ['pkg/zdr_embed.js', 'ES module glue'],
  ['pkg/zdr_embed_widget.js', 'drop-in script (glue + module)'],
];
const bytes = (n) => `${n.toLocaleString('en-US')} B`.padStart(12);
console.log('size report'.padEnd(34) + 'raw'.padStart(12) + 'gzip -9'.padStart(12) + 'brotli'.padStart(12));
for (const [path, label] of files) {
  if (!existsSync(path)) {
    console.log(`${label.padEnd(34)}(missing: ${path})`);
    continue;
  }
  const data = readFileSync(path);
  const gzip = gzipSync(data, { level: 9 }).length;
  const brotli = brotliCompressSync(data, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
  }).length;
  console.log(label.padEnd(34) + bytes(data.length) + bytes(gzip) + bytes(brotli) + `   ${path}`);
}
