// Module cycles in the workspace's crates: among the modules of one parent
// (the files and folders beside each other), an import of one by another is
// an edge, and no such edges may go round in a circle. A child reaching its
// own parent (`super::Item`) or a parent its child is no edge: they are one
// module's inside. Exits 1 and names each circle with the imports that
// close it.
//
//   node scripts/module-cycles.mjs            # every crate under crates/ and the root crate
//   node scripts/module-cycles.mjs crates/chart
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;

/** Every .rs file under `dir`, recursively. */
function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : name.endsWith('.rs') ? [path] : [];
  });
}

/** A file's module path below its crate's `src/`: `a/b.rs` and `a/b/mod.rs` are `a::b`. */
function modulePath(src, file) {
  const parts = relative(src, file).replace(/\.rs$/, '').split('/');
  const last = parts.at(-1);
  if (last === 'mod' || (parts.length === 1 && (last === 'lib' || last === 'main'))) parts.pop();
  return parts;
}

/** The code without comments and string literals (so their words are not imports). */
function code(text) {
  return text
    .replace(/\/\/[^\n]*/g, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/r#*"[\s\S]*?"#*/g, '""')
    .replace(/"(?:[^"\\]|\\.)*"/g, '""');
}

/** `use a::{b, c::{d, e}};` as the paths it names. */
function expand(tree) {
  const open = tree.indexOf('{');
  if (open < 0) return [tree.replace(/\s+as\s+\w+$/, '').trim()];
  const head = tree.slice(0, open);
  const body = tree.slice(open + 1, tree.lastIndexOf('}'));
  const items = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '{') depth++;
    else if (body[i] === '}') depth--;
    else if (body[i] === ',' && depth === 0) {
      items.push(body.slice(start, i));
      start = i + 1;
    }
  }
  items.push(body.slice(start));
  return items.map((s) => s.trim()).filter(Boolean).flatMap((item) => expand(head + item));
}

/** The module paths a file's code names, each with the line it is on. */
function references(text) {
  const found = [];
  const lineOf = (index) => text.slice(0, index).split('\n').length;
  for (const m of text.matchAll(/\buse\s+([^;]+);/g)) {
    for (const path of expand(m[1].replace(/\s+/g, ' '))) found.push({ path: path.replace(/\s/g, ''), line: lineOf(m.index) });
  }
  for (const m of text.matchAll(/\b(?:crate|super|self)(?:::\w+)+/g)) found.push({ path: m[0], line: lineOf(m.index) });
  return found;
}

/** `path` (crate::…, super::…, self::…) from module `from`, as the longest known module it names. */
function resolve(path, from, known) {
  const parts = path.split('::');
  let base;
  if (parts[0] === 'crate') base = [];
  else if (parts[0] === 'self') base = [...from];
  else if (parts[0] === 'super') {
    base = [...from];
    while (parts[0] === 'super') {
      base.pop();
      parts.shift();
    }
    parts.unshift('super');
  } else return null;
  const rest = parts.slice(1);
  let best = null;
  for (let i = 0; i <= rest.length; i++) {
    const candidate = [...base, ...rest.slice(0, i)];
    if (known.has(candidate.join('::'))) best = candidate;
  }
  return best;
}

/** The strongly connected components of more than one node (Tarjan). */
function circles(nodes, edges) {
  let index = 0;
  const stack = [];
  const info = new Map();
  const out = [];
  const visit = (v) => {
    info.set(v, { index, low: index, on: true });
    index++;
    stack.push(v);
    for (const w of edges.get(v) ?? []) {
      if (!info.has(w)) {
        visit(w);
        info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
      } else if (info.get(w).on) info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
    }
    if (info.get(v).low === info.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        info.get(w).on = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component);
    }
  };
  for (const v of nodes) if (!info.has(v)) visit(v);
  return out;
}

/** The circles among sibling modules of the crate whose sources are in `src`. */
export function crateCircles(src) {
  const all = files(src).filter((f) => !(f.endsWith('/main.rs') && existsSync(join(src, 'lib.rs')) && relative(src, f) === 'main.rs'));
  const modules = new Map(all.map((file) => [file, modulePath(src, file)]));
  const known = new Set([...modules.values()].map((m) => m.join('::')));
  // Per parent: edges between its children, and the import behind each.
  const graphs = new Map();
  for (const [file, from] of modules) {
    for (const { path, line } of references(code(readFileSync(file, 'utf8')))) {
      const to = resolve(path, from, known);
      if (!to) continue;
      let common = 0;
      while (common < from.length && common < to.length && from[common] === to[common]) common++;
      // One is inside the other: a module's own inside, no edge.
      if (common === from.length || common === to.length) continue;
      const parent = from.slice(0, common).join('::');
      const [a, b] = [from[common], to[common]];
      if (!graphs.has(parent)) graphs.set(parent, { edges: new Map(), why: new Map() });
      const graph = graphs.get(parent);
      if (!graph.edges.has(a)) graph.edges.set(a, new Set());
      graph.edges.get(a).add(b);
      const key = `${a}->${b}`;
      if (!graph.why.has(key)) graph.why.set(key, `${relative(ROOT, file)}:${line} uses ${path}`);
    }
  }
  const found = [];
  for (const [parent, { edges, why }] of graphs) {
    for (const circle of circles([...edges.keys()], edges)) {
      const inside = new Set(circle);
      const imports = [...why].filter(([key]) => key.split('->').every((m) => inside.has(m))).map(([, line]) => line);
      found.push({ parent: parent || '(crate root)', modules: circle.sort(), imports });
    }
  }
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const crates = process.argv.length > 2
    ? process.argv.slice(2)
    : ['.', ...readdirSync(join(ROOT, 'crates')).map((name) => `crates/${name}`)];
  let bad = 0;
  for (const dir of crates) {
    const src = join(ROOT, dir, 'src');
    if (!existsSync(src)) continue;
    for (const { parent, modules, imports } of crateCircles(src)) {
      bad++;
      console.error(`${dir}: a module cycle under ${parent}: ${modules.join(' <-> ')}`);
      for (const line of imports) console.error(`  ${line}`);
    }
  }
  if (bad) process.exit(1);
  console.log(`no module cycles in ${crates.length} crates`);
}
