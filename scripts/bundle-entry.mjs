// The package's entry and the service module's glue as one ES module:
//   node scripts/bundle-entry.mjs pkg/zdr_embed.js
// rewrites pkg/zdr_embed.js (js/zdr_embed.js, copied there) with the glue of
// pkg/service/zdr_embed_service.js inlined. A page's `import 'zdr-embed'`
// then fetches one module before the service's .wasm instead of two, one
// after the other. On the benchmark's cold page, where every request goes
// through Playwright's router as a page's would cross a network, with the
// early engine request of js/zdr_embed.js: 209 -> 188 ms to the first card
// without preload(), 181 -> 172 with it (docs/benchmarks.md, change 10).
//
// The glue names its .wasm beside itself; from the entry it lies in
// service/, so that one URL is rewritten, and the build fails if the glue
// no longer has it exactly once. The engine stays a dynamic import of its
// own file: bundlers split it off, as issue 14 asks.
//
// pkg/service/zdr_embed_service.js stays in the package, for a page that
// imports the service module alone (no engine loader is registered then);
// a page that imports both it and the entry instantiates the service
// module twice, each with its own cards.
import { readFileSync, renameSync } from 'node:fs';
import { resolve } from 'node:path';
import { rolldown } from 'rolldown';

const entry = resolve(process.argv[2] ?? 'pkg/zdr_embed.js');
const glue = resolve(entry, '../service/zdr_embed_service.js');
const WASM_URL = /new URL\((["'])zdr_embed_service_bg\.wasm\1,\s*import\.meta\.url\)/g;

const bundle = await rolldown({
  input: entry,
  // The engine, found at run time beside the entry (or by a bundler).
  external: (id) => /(^|\/)engine\//.test(id),
  plugins: [
    {
      name: 'service-wasm-beside-the-entry',
      transform(code, id) {
        if (resolve(id) !== glue) return null;
        const found = code.match(WASM_URL)?.length ?? 0;
        if (found !== 1) {
          throw new Error(`${glue}: expected one new URL("zdr_embed_service_bg.wasm", import.meta.url), found ${found}; has wasm-bindgen changed how its glue finds the .wasm?`);
        }
        return { code: code.replace(WASM_URL, 'new URL("./service/zdr_embed_service_bg.wasm",import.meta.url)'), map: null };
      },
    },
  ],
});
const out = `${entry}.bundled`;
try {
  await bundle.write({ file: out, format: 'esm', sourcemap: false });
} finally {
  await bundle.close();
}
const text = readFileSync(out, 'utf8');
if (/from\s*["'][^"']*zdr_embed_service\.js["']/.test(text)) {
  throw new Error(`${out}: the service glue was not inlined`);
}
renameSync(out, entry);
