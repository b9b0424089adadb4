#!/usr/bin/env node
// Every repository path the docs name, checked against the tree: the paths in
// `backticks`, in fenced code blocks and in links of README.md and docs/*.md
// (or of the files given as arguments), and the #anchors of links to a
// markdown file of the repository. Prints each miss as file:line and exits 1
// when there is one, 0 when every path exists.
//
//   node scripts/doc-paths.mjs              README.md and docs/*.md
//   node scripts/doc-paths.mjs CHANGELOG.md some files only
//
// What counts as a path (no dependencies, no guessing by the file system):
// - a token that starts with a top-level folder of the repository (`src/`,
//   `crates/`, `docs/`, `scripts/`, `tests/`, ...) must exist at that path
//   from the root (for a link, from the linking file's folder), or inside a
//   crate the same paragraph or the section's heading names (`crates/host/`,
//   `zdr-host`, `crates/host/tests/`): `tests/replicas.rs` in a paragraph
//   about zdr-host is crates/host/tests/replicas.rs;
// - a token with a folder and a known extension that starts elsewhere
//   (`model/card.rs`, `paint/svg/mod.rs`) must be the end of some file's path;
// - a bare file name with a known extension (`frame.rs`) must be some file's
//   name.
// - a Rust path (`model::stream::line`, `zdr_chart::paint::pixels`) whose
//   first name is a module of one of the workspace's crates (or the crate,
//   as `zdr_chart`) is followed down the module files while it names
//   modules; the first name that is not a module must be defined (`fn`,
//   `struct`, `enum`, `trait`, `type`, `const`, `static`, `mod`, a
//   `pub use`) in the last module's file. What follows that name (a method,
//   a variant) is not checked, nor a path that starts outside the
//   workspace (`core::fmt`, `serde_json::Value`).
// Left out: URLs, generated folders (pkg/, target/, test-results/,
// node_modules/, dist/) and the package's own layout (`engine/zdr_engine.js`,
// `./service/`), globs and placeholders (`*`, `…`, `<kind>`, `{a,b}`), a
// bare extension (`.wasm`), example file names (`Q1_sales.csv`: only a
// bare name ending .rs, .mjs, .sh, .md or .toml is checked) and code
// (`import('…')`).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const GENERATED = ['pkg/', 'target/', 'test-results/', 'node_modules/', 'dist/', 'zdr-data/'];
const PACKAGE = /^(\.\/)?(engine|service)(\/|$)|^zdr_embed(_widget|_element)?\.(js|d\.ts)$/;
const BARE = /\.(rs|mjs|sh|md|toml)$/;
const EXT = /\.(rs|md|mjs|js|cjs|ts|sh|toml|json|html|css|yml|yaml|txt|csv|png|svg|wasm|lock|d\.ts)$/;

const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean)
  .filter((f) => existsSync(join(ROOT, f)));
const names = new Set(tracked.map((f) => f.slice(f.lastIndexOf('/') + 1)));
const folders = new Set();
for (const f of tracked) {
  const parts = f.split('/');
  for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'));
}
const TOP = new Set([...folders].filter((d) => !d.includes('/')));
const exists = (p) => existsSync(join(ROOT, p));
const endsSome = (p) => tracked.some((f) => f === p || f.endsWith('/' + p)) ||
  [...folders].some((d) => d === p || d.endsWith('/' + p));

const files = process.argv.length > 2
  ? process.argv.slice(2)
  : ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

// GitHub's heading anchors: lower case, punctuation dropped, spaces to
// hyphens, repeats numbered.
function anchorsOf(file) {
  const seen = new Map();
  const out = new Set();
  let fenced = false;
  for (const line of readFileSync(join(ROOT, file), 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const text = m[1].replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

function clean(token) {
  return token
    .replace(/^[("'[<]+/, '')
    .replace(/[)"'\]>,.;:!?]+$/, '')
    .replace(/:\d+(-\d+)?$/, '') // file.rs:120
    .replace(/#.*$/, '');
}

function skipped(p) {
  return !p || /^[a-z]+:/i.test(p) || p.startsWith('//') || p.startsWith('/') ||
    p.includes('::') || /[*…<>{}$%|=@()'"]/.test(p) || p.includes('...') ||
    /^\.[a-z0-9]+$/i.test(p) || PACKAGE.test(p) ||
    GENERATED.some((g) => p.startsWith(g) || p.startsWith('./' + g));
}

// The crate folders a piece of text names: `crates/x`, `zdr-x`, `zdr_x`.
function cratesIn(text) {
  const out = [];
  for (const m of text.matchAll(/crates\/([a-z0-9_-]+)|\bzdr[-_]([a-z0-9_-]+)/g)) {
    const dir = `crates/${(m[1] ?? m[2]).replace(/_/g, '-')}`;
    if (folders.has(dir) && !out.includes(dir)) out.push(dir);
  }
  if (/\bfuzz\b/.test(text) && !out.includes('fuzz')) out.push('fuzz');
  return out;
}

// Where `p`, named in `file`, is: null when found, else what was expected.
// `context` is the paragraph and the section's heading the path is named in.
function check(p, file, isLink, context = '') {
  const fromDoc = normalize(join(dirname(file), p));
  if (isLink) {
    if (exists(fromDoc) || exists(p)) return null;
    return fromDoc;
  }
  const first = p.split('/')[0];
  if (p.includes('/') && (TOP.has(first) || first === '.' || first === '..')) {
    if (exists(p) || (first.startsWith('.') && exists(fromDoc))) return null;
    return cratesIn(context).some((c) => exists(`${c}/${p}`)) ? null : p;
  }
  if (p.includes('/')) return EXT.test(p) && !endsSome(p.replace(/\/$/, '')) ? p : null;
  return BARE.test(p) && !names.has(p) && !exists(p) ? p : null;
}

// The workspace's crates: `zdr_x` → its src/ folder (the root crate is
// zdr_embed), and every src/ folder as a root for a path that starts with
// one of its modules.
const CRATE_SRC = new Map([['zdr_embed', 'src']]);
for (const d of folders) {
  const m = /^crates\/([^/]+)\/src$/.exec(d);
  if (m) CRATE_SRC.set(`zdr_${m[1].replace(/-/g, '_')}`, d);
}
const moduleFile = (dir, name) =>
  [`${dir}/${name}.rs`, `${dir}/${name}/mod.rs`].find(exists) ??
  (folders.has(`${dir}/${name}`) ? `${dir}/${name}` : null);
const DEFINES = (name) =>
  new RegExp(`\\b(fn|struct|enum|trait|type|const|static|mod|union)\\s+${name}\\b|macro_rules!\\s*${name}\\b|\\buse\\s[^;]*\\b${name}\\b[^;]*;`);

// Where a Rust path fails, or null: see the header.
function checkRust(path) {
  const names = path.replace(/\(\)$/, '').split('::');
  const starts = CRATE_SRC.has(names[0])
    ? [[CRATE_SRC.get(names[0]), names.slice(1)]]
    : [...new Set(CRATE_SRC.values())].map((dir) => [dir, names]);
  let best = null;
  for (const [root, rest] of starts) {
    if (!rest.length) return null;
    let dir = root;
    let file = [`${root}/lib.rs`, `${root}/main.rs`].find(exists);
    let i = 0;
    for (; i < rest.length; i++) {
      const found = moduleFile(dir, rest[i]);
      if (!found) break;
      file = found.endsWith('.rs') ? found : null;
      dir = found.replace(/\/mod\.rs$|\.rs$/, '');
    }
    if (i === 0 && !CRATE_SRC.has(names[0])) continue; // not one of ours
    if (i === rest.length) return null; // modules all the way
    const text = file ? readFileSync(join(ROOT, file), 'utf8') : '';
    if (DEFINES(rest[i]).test(text)) return null;
    best = `${file ?? dir} defines no \`${rest[i]}\``;
  }
  return best;
}

const misses = [];
for (const file of files) {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  let fenced = false;
  let heading = '';
  let paragraph = [];
  lines.forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      paragraph = [];
      return;
    }
    if (!fenced && /^#{1,6}\s/.test(line)) heading = line;
    // A paragraph: lines since a blank one; in a fenced block, since a
    // line that starts in the first column (one entry of a listing).
    if (!line.trim() || (fenced && /^\S/.test(line)) || (!fenced && /^\s*([-*]|\d+\.|\|)\s/.test(line))) paragraph = [];
    paragraph.push(line);
    const context = `${heading}\n${paragraph.join('\n')}`;
    const spans = [];
    if (fenced) spans.push(line);
    else for (const m of line.matchAll(/`([^`]+)`/g)) spans.push(m[1]);
    for (const span of spans) {
      if (!fenced) {
        const rust = /^(?:crate::)?([a-z_][a-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)+)(?:\(\))?$/.exec(span.trim());
        if (rust) {
          const miss = checkRust(rust[1]);
          if (miss) misses.push(`${where}: \`${span.trim()}\`: ${miss}`);
          continue;
        }
      }
      for (const raw of span.split(/\s+/)) {
        const p = clean(raw);
        if (skipped(p)) continue;
        if (fenced && !TOP.has(p.split('/')[0])) continue; // commands, flags, values
        const miss = check(p, file, false, context);
        if (miss) misses.push(`${where}: \`${p}\` does not exist`);
      }
    }
    if (fenced) return;
    const bare = line.replace(/`[^`]*`/g, '');
    for (const m of bare.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/i.test(target)) continue;
      const [path, anchor] = target.split('#');
      if (path && skipped(path)) continue;
      if (path) {
        const miss = check(path, file, true);
        if (miss) {
          misses.push(`${where}: link ${target}: ${relative(ROOT, join(ROOT, miss)) || miss} does not exist`);
          continue;
        }
      }
      if (anchor === undefined) continue;
      const linked = path ? normalize(join(dirname(file), path)) : file;
      if (!linked.endsWith('.md') || !exists(linked)) continue;
      if (!anchorsOf(linked).has(anchor.toLowerCase())) {
        misses.push(`${where}: link ${target}: ${linked} has no heading #${anchor}`);
      }
    }
  });
}

for (const m of misses) console.log(m);
if (misses.length) {
  console.error(`doc-paths: ${misses.length} path(s) or anchor(s) named in the docs do not exist`);
  process.exit(1);
}
console.log(`doc-paths: every path and anchor named in ${files.length} file(s) exists`);
