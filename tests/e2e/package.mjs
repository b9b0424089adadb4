// The real npm package for the end-to-end tests: what `npm pack` publishes,
// unpacked as an install would lay it out. Not a test file itself.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Packs the repository's package into `work` and returns the unpacked folder. */
export function packPackage(work) {
  execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: ROOT });
  const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
  execFileSync('tar', ['-xzf', join(work, tarball), '-C', work]);
  return join(work, 'package');
}
