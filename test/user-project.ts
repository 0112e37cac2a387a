// A user's project for the package tests: `npm pack`'s tarball of this checkout, and an empty ES
// module project (a folder the caller makes, so that it lives as long as the caller's context:
// the file's, or one test's). Importing this file does nothing (the runner also loads it as a
// test file).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './tmp.js';

const root = new URL('../..', import.meta.url).pathname;

/**
 * The checkout packed as users get it (no scripts run; the tarball in a temporary folder of the
 * calling context), and `project` made an empty project to install it in: the tarball's path.
 */
export function packInto(project: string): string {
  const packs = tempDir('sjd-pack-');
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', packs], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'sjd-user-project', private: true, type: 'module' }),
  );
  return join(packs, out.trim().split('\n').at(-1)!);
}
