// The `sjd` command of this checkout for tests that drive it end to end: run in a folder with
// one libtorch thread, as the user's shell would; `ok` also asserts that it exited 0 (its stderr
// the message otherwise) and gives its stdout. Importing this file does nothing (the runner also
// loads it as a test file).
import assert from 'node:assert/strict';
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;

export interface Cli {
  run(...args: string[]): SpawnSyncReturns<string>;
  ok(...args: string[]): string;
}

/** `sjd` run in `dir`, with `env` added to the environment (SJD_BACKEND, ...). */
export function cliIn(dir: string, env: Record<string, string> = {}): Cli {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [bin, ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, SJD_THREADS: '1', ...env },
    });
  return {
    run,
    ok: (...args) => {
      const r = run(...args);
      assert.equal(r.status, 0, r.stderr);
      return r.stdout;
    },
  };
}

/**
 * stderr without the progress lines a command prints once its work has run a second (off a
 * terminal: cli/progress.ts), which a loaded machine may or may not reach: what the command says.
 */
export const withoutProgress = (stderr: string): string =>
  stderr.replace(/^(sjd solve: \d+ (boards done|network passes)|[^:\n]+: \d+\/\d+ ).*\n/gm, '');
