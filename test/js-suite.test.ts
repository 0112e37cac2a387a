// Part of the suite run again on the TypeScript backend (SJD_BACKEND=js, so no libtorch is loaded
// in those processes or in the CLI processes they start): the Sudoku samplers (the adaptive one,
// the confidence policy, the rules' exclusions, the undoing sampler and its searches), the keyed
// draws, and `sjd solve` end to end. Each file must pass there as it passes on the addon; what does
// not depend on the backend (test/slow.ts's backendIndependent) runs on the addon only.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const FILES = [
  'adaptive-sampler',
  'confidence-policy',
  'sampler-exclusion',
  'sampler-remask',
  'site-draws',
  'step-random',
  'sudoku-remask',
  'sudoku-solve-cli',
];

test('the samplers, the draws and sjd solve pass on the TypeScript backend', {
  timeout: 20 * 60_000,
}, () => {
  // a runner of its own: NODE_TEST_CONTEXT would make the child report to this one instead
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const r = spawnSync(
    process.execPath,
    ['--test', '--test-concurrency=1', ...FILES.map((f) => join(here, `${f}.test.js`))],
    {
      encoding: 'utf8',
      env: { ...env, SJD_BACKEND: 'js', SJD_THREADS: '1', SJD_TEST_BACKEND_ONLY: '1' },
    },
  );
  const failing = r.stdout.split('\n').filter((l) => l.startsWith('not ok'));
  assert.deepEqual(failing, [], r.stdout.slice(-3000));
  assert.equal(r.status, 0, r.stderr.slice(-2000));
  assert.match(r.stdout, /^# pass [1-9]\d*$/m);
  assert.match(r.stdout, /^# fail 0$/m);
});
