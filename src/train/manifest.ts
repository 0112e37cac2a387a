// Run folders are self-describing (docs/design.md §4): manifest.json holds the sjd version, the git
// commit, the seed, the data hash, libtorch, threads, the device and the time, written atomically.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultDevice, getNumThreads, torchVersion } from '../torch/index.js';
import { writeJsonAtomic } from '../util/atomic.js';
import { RUN_FILES } from './run-folder.js';

function gitCommit(): string {
  try {
    const here = new URL('../../..', import.meta.url).pathname;
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: here,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'unknown';
  }
}

export function sjdVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
  return pkg.version as string;
}

export function writeManifest(
  dir: string,
  fields: { seed: number; dataHash: string } & Record<string, unknown>,
): void {
  writeJsonAtomic(join(dir, RUN_FILES.manifest), {
    sjd: sjdVersion(),
    commit: gitCommit(),
    libtorch: torchVersion().torch,
    threads: getNumThreads(),
    device: defaultDevice(),
    written: new Date().toISOString(),
    ...fields,
  });
}
