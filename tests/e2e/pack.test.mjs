// What `npm pack` would publish, exactly: the test fails when a file the
// package needs is missing (an export's target, its types, a module's .wasm)
// or when a stray one would ship (a build's leftovers, tests, sources).
//
// It builds nothing: scripts/test.sh builds the package first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ROOT } from './package.mjs';

const EXPECTED = [
  'CHANGELOG.md',
  'LICENSE-APACHE',
  'LICENSE-MIT',
  'README.md',
  'bin/audit.mjs',
  'bin/zdr-embed.mjs',
  'package.json',
  'pkg/components.js',
  'pkg/element.js',
  'pkg/engine/__wasm_split.js',
  'pkg/engine/zdr_engine.d.ts',
  'pkg/engine/zdr_engine.js',
  'pkg/engine/zdr_engine_bg.wasm',
  'pkg/engine/zdr_engine_bg.wasm.d.ts',
  'pkg/react.d.ts',
  'pkg/react.js',
  'pkg/service/zdr_embed_service.d.ts',
  'pkg/service/zdr_embed_service.js',
  'pkg/service/zdr_embed_service_bg.wasm',
  'pkg/service/zdr_embed_service_bg.wasm.d.ts',
  'pkg/svelte/ZdrChart.svelte',
  'pkg/svelte/action.js',
  'pkg/svelte/index.d.ts',
  'pkg/svelte/index.js',
  'pkg/vue.d.ts',
  'pkg/vue.js',
  'pkg/zdr_embed.d.ts',
  'pkg/zdr_embed.js',
  'pkg/zdr_embed_element.d.ts',
  'pkg/zdr_embed_element.js',
  'pkg/zdr_embed_widget.d.ts',
  'pkg/zdr_embed_widget.js',
];

test('npm pack --dry-run lists exactly the files the package needs', () => {
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: ROOT, encoding: 'utf8' }));
  const files = packed.files.map((file) => file.path).sort();
  // The engine's chunks, one per group of card kinds, the interaction and
  // the shell, named by their hash.
  const chunks = files.filter((file) => /^pkg\/engine\/(kinds-[a-z]+|interact|shell)\.[0-9a-f]{12}\.wasm$/.test(file));
  assert.deepEqual(chunks.map((file) => file.slice('pkg/engine/'.length).split('.')[0]).sort(), [
    'interact', 'kinds-bars', 'kinds-boxplot', 'kinds-heatmap', 'kinds-histogram', 'kinds-lines', 'kinds-maps',
    'kinds-metric', 'kinds-pie', 'kinds-scatter', 'kinds-table', 'kinds-timeline', 'kinds-treemap', 'shell',
  ]);
  assert.deepEqual(files.filter((file) => !chunks.includes(file)), [...EXPECTED].sort());
});

test('every export names files that ship, each JavaScript entry with its types', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const shipped = new Set(EXPECTED);
  for (const [entry, target] of Object.entries(pkg.exports)) {
    const targets = typeof target === 'string' ? { default: target } : target;
    for (const path of Object.values(targets)) {
      assert.ok(shipped.has(path.replace(/^\.\//, '')), `${entry}: ${path} does not ship`);
    }
    if (targets.default.endsWith('.js')) assert.ok(targets.types, `${entry} has no types`);
  }
  for (const field of ['repository', 'keywords', 'license', 'types', 'sideEffects']) {
    assert.ok(pkg[field], `package.json has no ${field}`);
  }
});
