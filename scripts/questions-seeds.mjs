// Writes the seed corpus of the `questions` fuzz target (fuzz/corpus/questions/)
// from the query corpora of crates/host/tests/corpus: each question of a
// "visualize" section, a NUL, and the first 4 KB of its table (whole rows);
// each question of a "search" section alone (the target's small sales table).
// Files are named by their SHA-1, as `cargo fuzz cmin` names them.
// Run once, or again when the query corpora grow: node scripts/questions-seeds.mjs
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const corpus = new URL('../crates/host/tests/corpus/', import.meta.url).pathname;
const out = new URL('../fuzz/corpus/questions/', import.meta.url).pathname;
const MAX_TABLE = 4096;

function head(csv) {
  if (csv.length <= MAX_TABLE) return csv;
  return csv.slice(0, csv.lastIndexOf('\n', MAX_TABLE) + 1);
}

mkdirSync(out, { recursive: true });
let written = 0;
for (const file of readdirSync(corpus).filter((f) => f.endsWith('.txt')).sort()) {
  let table = null;
  for (const line of readFileSync(join(corpus, file), 'utf8').split('\n')) {
    const section = line.match(/^## \S+ (visualize|search) (\S+)/);
    if (section) {
      table = section[1] === 'visualize' ? head(readFileSync(join(corpus, section[2]), 'utf8')) : null;
      continue;
    }
    if (!line.trim() || line.startsWith('#')) continue;
    const question = line.split('|')[0].trim();
    const bytes = Buffer.from(table === null ? question : `${question}\0${table}`);
    writeFileSync(join(out, createHash('sha1').update(bytes).digest('hex')), bytes);
    written += 1;
  }
}
console.log(`${written} seeds in fuzz/corpus/questions/`);
