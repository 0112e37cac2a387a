// End-to-end runs of the `sjd` command: the demo trains and its loss falls; bad input gets
// one line on stderr and exit status 2, never a stack trace.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const sjd = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

test('sjd demo trains a transformer and its loss falls', () => {
  const r = sjd('demo', 'reverse', '--steps', '150', '--length', '8', '--seed', '3');
  assert.equal(r.status, 0, r.stderr);
  const losses = [...r.stdout.matchAll(/loss (\d+\.\d+)/g)].map((m) => Number(m[1]));
  assert.ok(losses.length >= 5);
  assert.ok(losses.at(-1)! < losses[0]! / 5, `losses ${losses}`);
  const acc = Number(/held-out token accuracy (\d+\.\d)%/.exec(r.stdout)![1]);
  assert.ok(acc > 90, `accuracy ${acc}`);
});

test('the same seed gives the same demo output', () => {
  const args = [
    'demo',
    'reverse',
    '--steps',
    '20',
    '--length',
    '6',
    '--seed',
    '5',
    '--threads',
    '1',
  ];
  const a = sjd(...args);
  const b = sjd(...args);
  const strip = (s: string) => s.replace(/in \d+\.\d s/, '');
  assert.equal(strip(a.stdout), strip(b.stdout));
});

for (const args of [
  ['demo', 'reverse', '--steps', 'abc'],
  ['demo', 'reverse', '--length', '1'],
  ['--threads', '0', 'info'],
  ['nonsense'],
]) {
  test(`bad input gets one line and exit 2: sjd ${args.join(' ')}`, () => {
    const r = sjd(...args);
    assert.equal(r.status, 2);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /^sjd: /);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });
}

test('sjd demo solves generated puzzles with the shipped model', () => {
  const r = sjd('demo', '--count', '4', '--nfe', '8', '--show', '1');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /solving with .*models\/sudoku\/model\.safetensors/);
  const m = /solved (\d)\/4 boards \((\d+\.\d)%\), cell accuracy (\d+\.\d)%/.exec(r.stdout);
  assert.ok(m, r.stdout);
  assert.ok(Number(m![3]) > 40, `the shipped model fills cells far above chance (11%): ${m![3]}%`);
});

test('sjd info names the libtorch build', () => {
  const r = sjd('info');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /libtorch 1\.\d+/);
});
