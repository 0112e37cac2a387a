// Run folders are self-describing (DESIGN.md §4): config.json (the resolved config) and
// manifest.json (sjd version, git commit, seed, data hash, libtorch, threads, times), written
// atomically.
import { execFileSync } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getNumThreads, torchVersion } from '../torch/index.js';

export function writeJsonAtomic(path: string, value: unknown): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(tmp, path);
}

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
  writeJsonAtomic(join(dir, 'manifest.json'), {
    sjd: sjdVersion(),
    commit: gitCommit(),
    libtorch: torchVersion().torch,
    threads: getNumThreads(),
    written: new Date().toISOString(),
    ...fields,
  });
}
