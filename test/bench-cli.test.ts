// The benchmark runner's command line (bench/run.ts): --help prints its usage and the
// benchmarks' names and exits 0; an unknown flag gets one line and exit status 2, never a stack
// trace. Neither runs a benchmark.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

const run = new URL('../bench/run.js', import.meta.url).pathname;
const bench = (...args: string[]) =>
  spawnSync(process.execPath, [run, ...args], { encoding: 'utf8', timeout: 60_000 });

test('bench --help prints the usage and the benchmarks', () => {
  for (const flag of ['--help', '-h']) {
    const r = bench(flag);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^usage: npm run bench /);
    assert.match(r.stdout, /--only NAME/);
    assert.match(r.stdout, /benchmarks: .*gemm-1024/);
    assert.equal(r.stderr, '');
  }
});

test('bench with an unknown flag: one line, exit status 2', () => {
  const r = bench('--nope');
  assert.equal(r.status, 2);
  assert.equal(r.stderr, "bench: Unknown option '--nope' (--help lists the options)\n");
  assert.equal(r.stdout, '');
});
