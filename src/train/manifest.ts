// Run folders are self-describing (docs/design.md §4): manifest.json holds the sjd version, the git
// commit when sjd runs from its own checkout, the seed, the data hash, libtorch, threads, the
// device and the time, written atomically.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultDevice, getNumThreads, torchVersion } from '../torch/index.js';
import { writeJsonAtomic } from '../util/atomic.js';
import { RUN_FILES } from './run-folder.js';

/**
 * The git commit of sjd at `root` when it runs from a checkout of its own (a `.git` there);
 * installed as a package it has none, and a git repository around it (a user's project) is not
 * sjd's: undefined, and the manifest's `sjd` version says what ran.
 */
export function checkoutCommit(
  root = new URL('../../..', import.meta.url).pathname,
): string | undefined {
  if (!existsSync(join(root, '.git'))) return undefined;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

export function sjdVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
  return pkg.version as string;
}

/** The manifest of a run folder (null when it has none or it is not JSON). */
export function readManifest(dir: string): Record<string, unknown> | null {
  const path = join(dir, RUN_FILES.manifest);
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * A resumed run trains on the data it started with: the task's data hash against the one its
 * manifest records (a run without one, from before manifests, is not checked). `data` is the
 * run's recorded source (config.data), named in the refusal.
 */
export function checkRunData(dir: string, dataHash: string, data: string | undefined): void {
  const recorded = readManifest(dir)?.dataHash;
  if (typeof recorded !== 'string' || recorded === dataHash) return;
  const hashes = `data hash ${dataHash.slice(0, 12)}, the run's ${recorded.slice(0, 12)}`;
  throw new Error(
    data === undefined
      ? `${dir}: these training data are not the ones the run started with (${hashes}); resume it on its own data`
      : `${dir}: its training data ${data} changed since the run started (${hashes}); a resumed run trains on the data it started with`,
  );
}

export function writeManifest(
  dir: string,
  fields: { seed: number; dataHash: string } & Record<string, unknown>,
): void {
  writeJsonAtomic(join(dir, RUN_FILES.manifest), {
    sjd: sjdVersion(),
    commit: checkoutCommit(),
    libtorch: torchVersion().torch,
    threads: getNumThreads(),
    device: defaultDevice(),
    written: new Date().toISOString(),
    ...fields,
  });
}
