// Long Sudoku solves stopped and broken: `sjd eval sudoku` stops within 5 s of a Ctrl-C, its
// worker processes with it, and prints the scores of what it had solved; workers whose command
// is killed outright notice their closed channel and exit. `sjd solve --file` prints a plain
// progress line every few seconds when stderr is not a terminal, acknowledges a Ctrl-C at once,
// stops within 5 s leaving --out a valid file of the rows done (a prefix of the input), and a
// second Ctrl-C exits at once; a file of one huge line is refused in one line naming the line,
// and the temporary output file goes on every failure, an uncaught one included.
import assert from 'node:assert/strict';
import { type ChildProcessByStdio, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { outputOf } from './child-output.js';
import { tempDir } from './tmp.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const qqwing = new URL(
  '../../test/fixtures/sudoku/qqwing_noguess_test_first320.csv',
  import.meta.url,
).pathname;
const env = { ...process.env, SJD_THREADS: '1' };
type Child = ChildProcessByStdio<null, Readable, Readable>;
const start = (args: string[]): Child =>
  spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });

/** The live child processes of `pid`. */
const childrenOf = (pid: number): number[] =>
  spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((s) => Number(s.trim()))
    .filter((n) => n > 0);

/** Whether process `pid` is still running (a zombie is not). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits until `ok()` or `seconds` pass; true when ok. */
async function until(ok: () => boolean, seconds: number): Promise<boolean> {
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    if (ok()) return true;
    await sleep(100);
  }
  return ok();
}

/** The exit of `child` within `seconds` (its code and signal), or a failure. */
/**
 * The status a shell reports for the child (128 + 2 = 130 for a death by SIGINT: a Ctrl-C that
 * lands while the process is already tearing down, after its handlers are gone, ends it so).
 */
async function exitWithin(child: Child, seconds: number): Promise<number | null> {
  const t0 = Date.now();
  const timer = setTimeout(() => child.kill('SIGKILL'), seconds * 1000 + 30_000);
  const [exit, signal] = (await once(child, 'exit')) as [number | null, string | null];
  const code = exit ?? (signal === 'SIGINT' ? 130 : null);
  clearTimeout(timer);
  const took = (Date.now() - t0) / 1000;
  assert.ok(took < seconds, `exited ${took.toFixed(1)} s after the signal (bound ${seconds} s)`);
  return code;
}

// a solve that takes a while: a grid sampler spends its whole budget, in many small batches
const LONG = ['--sampler', 'sjd', '--no-rules', '--nfe', '16', '--batch', '4', '--retries', '0'];

test('Ctrl-C during eval sudoku: the workers go, the command prints what it solved, within 5 s', {
  timeout: 300_000,
}, async () => {
  const child = start(['eval', 'sudoku', '--data', qqwing, '--workers', '2', ...LONG]);
  const out = outputOf(child);
  assert.ok(await until(() => childrenOf(child.pid!).length === 2, 60), 'two workers started');
  const workers = childrenOf(child.pid!);
  // the workers loaded and chunks solved: a progress line counts three chunks of 4 boards or more,
  // so the first chunk is among them whichever worker finished first (the scores are over the
  // chunks done in order)
  const boards = () =>
    Math.max(0, ...[...out.stderr.matchAll(/: (\d+) boards done/g)].map((m) => Number(m[1])));
  assert.ok(await until(() => boards() >= 12, 120), out.stderr);
  child.kill('SIGINT');
  const code = await exitWithin(child, 5);
  assert.equal(code, 130, out.stderr);
  assert.match(out.stderr, /sjd: stopping the evaluation; Ctrl-C again to stop at once/);
  const m = /sjd: interrupted after (\d+) of 320 puzzles; the scores below are over those \1/.exec(
    out.stderr,
  );
  assert.ok(m, out.stderr);
  assert.match(out.stdout, new RegExp(`^${m![1]} boards?: solve rate `));
  assert.ok(await until(() => !workers.some(alive), 2), `workers left: ${workers.filter(alive)}`);
});

test('eval sudoku killed outright: its workers see the closed channel and exit', {
  timeout: 300_000,
}, async () => {
  const child = start(['eval', 'sudoku', '--data', qqwing, '--workers', '2', ...LONG]);
  const out = outputOf(child);
  assert.ok(await until(() => childrenOf(child.pid!).length === 2, 60), 'two workers started');
  const workers = childrenOf(child.pid!);
  // the workers loaded and solving: the first progress line counts boards done
  assert.ok(await until(() => /: [1-9]\d* boards done/.test(out.stderr), 120), out.stderr);
  child.kill('SIGKILL');
  await once(child, 'exit');
  assert.ok(await until(() => !workers.some(alive), 5), `workers left: ${workers.filter(alive)}`);
});

/** The rows of a `solve --file` output: its header, then quizzes,solutions,status rows. */
function outputRows(path: string): string[][] {
  const [header, ...lines] = readFileSync(path, 'utf8').split('\n');
  assert.equal(header, 'quizzes,solutions,status');
  assert.equal(lines.pop(), ''); // a final line break
  const rows = lines.map((l) => l.split(','));
  for (const r of rows) {
    assert.equal(r.length, 3, r.join(','));
    assert.match(r[0]!, /^\d{81}$/);
    assert.match(r[1]!, /^\d{81}$/);
  }
  return rows;
}

/** The temporary files beside `out` (`.NAME.PID.tmp`). */
const temps = (folder: string) => readdirSync(folder).filter((f) => f.endsWith('.tmp'));

test('solve --file with stderr not a terminal: plain progress lines; Ctrl-C stops within 5 s with a valid prefix', {
  timeout: 300_000,
}, async () => {
  const folder = tempDir('sjd-solve-int-');
  const out = join(folder, 'out.csv');
  const child = start(['solve', '--file', qqwing, '--out', out, '--workers', '1', ...LONG]);
  const o = outputOf(child);
  assert.ok(
    await until(
      () => /sjd solve: \d+ boards done \(\d+% of the file\), \d+ solved/.test(o.stderr),
      60,
    ),
    `a progress line within seconds: ${o.stderr}`,
  );
  assert.doesNotMatch(o.stderr, /\|[█░]+\|/); // no bar drawn into a log
  child.kill('SIGINT');
  assert.ok(await until(() => /stopping the solve/.test(o.stderr), 1), 'acknowledged at once');
  const code = await exitWithin(child, 5);
  assert.equal(code, 130, o.stderr);
  const m = /sjd: interrupted after (\d+) puzzles?; .*out\.csv holds their rows/.exec(o.stderr);
  assert.ok(m, o.stderr);
  const rows = outputRows(out);
  assert.equal(rows.length, Number(m![1]));
  const input = readFileSync(qqwing, 'utf8').split('\n').slice(1);
  for (const [n, row] of rows.entries()) assert.equal(row[0], input[n]!.split(',')[0]);
  assert.deepEqual(temps(folder), []);
});

test('solve --file: a second Ctrl-C exits at once, --out valid', { timeout: 300_000 }, async () => {
  const folder = tempDir('sjd-solve-int2-');
  const out = join(folder, 'out.csv');
  const child = start(['solve', '--file', qqwing, '--out', out, '--workers', '2', ...LONG]);
  const o = outputOf(child);
  assert.ok(await until(() => childrenOf(child.pid!).length === 2, 60), 'two workers started');
  const workers = childrenOf(child.pid!);
  child.kill('SIGINT');
  await sleep(50);
  child.kill('SIGINT');
  const code = await exitWithin(child, 3);
  assert.equal(code, 130, o.stderr);
  assert.ok(existsSync(out), o.stderr);
  outputRows(out); // a valid file
  assert.deepEqual(temps(folder), []);
  assert.ok(await until(() => !workers.some(alive), 2), `workers left: ${workers.filter(alive)}`);
});

test('solve --file on a file with a huge line: one line naming it, no temporary file left', () => {
  const folder = tempDir('sjd-solve-long-');
  const rows = readFileSync(qqwing, 'utf8').split('\n').slice(0, 4).join('\n');
  for (const [name, text, line] of [
    ['one-line.csv', `quizzes,solutions\n${'1'.repeat(3 << 20)}`, 2],
    ['later.csv', `${rows}\n${'0'.repeat(3 << 20)}\n`, 5],
  ] as const) {
    const file = join(folder, name);
    writeFileSync(file, text);
    const out = join(folder, `${name}.out.csv`);
    const r = spawnSync(process.execPath, [bin, 'solve', '--file', file, '--out', out], {
      encoding: 'utf8',
      env,
    });
    assert.equal(r.status, 1, r.stderr);
    assert.equal(
      r.stderr.trim(),
      `sjd: ${file} line ${line}: longer than 65,536 bytes (a Sudoku row is under 200); not a Sudoku CSV`,
    );
    assert.ok(!existsSync(out));
    assert.deepEqual(temps(folder), []);
  }
});

test('the temporary output goes on an uncaught exception too', () => {
  const folder = tempDir('sjd-solve-uncaught-');
  const out = join(folder, 'out.csv');
  const csv = new URL('../src/tasks/sudoku/puzzle/csv.js', import.meta.url).href;
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { SudokuCsvAppender } = await import(${JSON.stringify(csv)});
       const w = new SudokuCsvAppender(${JSON.stringify(out)});
       w.append([]);
       setTimeout(() => { throw new Error('boom'); }, 10);`,
    ],
    { encoding: 'utf8' },
  );
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /boom/);
  assert.deepEqual(temps(folder), []);
  assert.ok(!existsSync(out));
});

test('solve --file: a missing file says so, a folder says it is one', () => {
  const folder = tempDir('sjd-solve-missing-');
  const run = (file: string) =>
    spawnSync(process.execPath, [bin, 'solve', '--file', file, '--out', join(folder, 'o.csv')], {
      encoding: 'utf8',
      env,
    });
  const missing = run(join(folder, 'nope.csv'));
  assert.equal(missing.stderr.trim(), `sjd: --file ${join(folder, 'nope.csv')}: no such file`);
  const asFolder = run(folder);
  assert.equal(asFolder.stderr.trim(), `sjd: --file ${folder} is a folder, not a puzzle file`);
  assert.deepEqual(temps(folder), []);
});
