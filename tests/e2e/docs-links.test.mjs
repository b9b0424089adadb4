// The README and docs/ link to files and headings that exist: a page moved
// or a heading renamed breaks a link here, not in a reader's hands.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

import { ROOT } from './package.mjs';

const pages = ['README.md', 'CHANGELOG.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
const withoutCode = (text) => text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, (span) => span.replace(/[[\]()]/g, ''));
// GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens.
const slug = (heading) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}_\- ]/gu, '').replaceAll(' ', '-');
const anchors = (file) => new Set([...withoutCode(readFileSync(join(ROOT, file), 'utf8')).matchAll(/^#+ (.*)$/gm)].map(([, heading]) => slug(heading.replaceAll('`', ''))));

test('every relative link of the README and docs/ finds its file and heading', () => {
  const broken = [];
  for (const page of pages) {
    const text = withoutCode(readFileSync(join(ROOT, page), 'utf8'));
    for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(link)) continue;
      const [path, anchor] = link.split('#');
      const target = path ? relative(ROOT, normalize(join(ROOT, dirname(page), path))) : page;
      // A link out of the repository works on one machine only.
      if (target.startsWith('..')) broken.push(`${page}: ${link} (outside the repository)`);
      else if (!existsSync(join(ROOT, target))) broken.push(`${page}: ${link} (no such file)`);
      else if (anchor && target.endsWith('.md') && !anchors(target).has(anchor)) broken.push(`${page}: ${link} (no such heading)`);
    }
  }
  assert.deepEqual(broken, []);
});
