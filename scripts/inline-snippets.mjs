// Puts the JavaScript snippets a wasm-bindgen glue imports (#[wasm_bindgen(module = "...")])
// into the glue itself, so the module stays two files (glue and .wasm): one request less
// on the way to a first local chart, and the package's file list stays as it is.
// Each snippet becomes a function scope that returns its exports, so its own top-level
// names cannot meet the glue's.
//
// usage: node scripts/inline-snippets.mjs pkg/engine/zdr_engine.js
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

const glue = process.argv[2];
const folder = dirname(glue);
let text = readFileSync(glue, 'utf8');
const pattern = /^import \{([^}]*)\} from '(\.\/snippets\/[^']+)';\n/gm;
let count = 0;
text = text.replace(pattern, (_, names, path) => {
  count += 1;
  const snippet = readFileSync(join(folder, path), 'utf8');
  const exported = [...snippet.matchAll(/^export function (\w+)/gm)].map((m) => m[1]);
  const bindings = names.split(',').map((n) => n.trim()).filter(Boolean).map((n) => {
    const [name, local = name] = n.split(/\s+as\s+/);
    if (!exported.includes(name)) throw new Error(`${path} does not export ${name}`);
    return name === local ? name : `${name}: ${local}`;
  });
  const body = snippet.replace(/^export function /gm, 'function ');
  return `const { ${bindings.join(', ')} } = (() => {\n${body}\nreturn { ${exported.join(', ')} };\n})();\n`;
});
if (/from '\.\/snippets\//.test(text)) throw new Error(`${glue}: a snippet import was not inlined`);
writeFileSync(glue, text);
rmSync(join(folder, 'snippets'), { recursive: true, force: true });
console.log(`inline-snippets: ${count} snippet(s) put into ${glue}`);
