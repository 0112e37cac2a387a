// What a user sees while waiting and asking: off a terminal (as under the test runner) a progress
// report says nothing for work done within a second, else a line then and one at the end (with
// lines every few seconds between); a batched sampling run tells its progress at every step and
// ends with every sequence counted; the corpus reader tells the bytes it has read, up to
// the whole source; the demo says it has made its puzzles before it solves them, and its solve
// tells its steps; `sample image` without --out writes sjd-samples.png in the current folder
// (refusing a file there that sjd did not write); a sampling command's help lists the samplers
// its task may use (the searching one only for Sudoku); `sjd info` names the libtorch the build
// found, how, and the BLAS and CPU in use.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PLAIN_EVERY_S, progress, SHOW_AFTER_S, withProgress } from '../src/cli/progress.js';
import { sampleInBatches, unconditionalSampling } from '../src/sampling/index.js';
import { loadSudokuModel, runSudokuDemo } from '../src/tasks/sudoku/index.js';
import { loadTextModel } from '../src/tasks/text/index.js';
import { normaliseSource } from '../src/tasks/text/source.js';
import { tempDir } from './tmp.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const sjd = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });

/** The lines fn() writes to stderr. */
function stderrOf(fn: () => void): string[] {
  const lines: string[] = [];
  const write = console.error;
  console.error = (...a: unknown[]) => lines.push(a.join(' '));
  try {
    fn();
  } finally {
    console.error = write;
  }
  return lines;
}

test('off a terminal: work done within SHOW_AFTER_S says nothing; longer work a line then and one at the end', () => {
  assert.equal(process.stderr.isTTY, undefined);
  const quick = stderrOf(() => withProgress('x', 1000, 'u', (u) => u(1)));
  assert.deepEqual(quick, []); // done at once, under SHOW_AFTER_S
  assert.ok(SHOW_AFTER_S <= 1 && PLAIN_EVERY_S < 5); // no silence over 5 s once shown
  const lines = stderrOf(() => {
    const p = progress('sampling 100 images', 100, 'images', 0.05);
    p.update(1); // before 50 ms: nothing
    const t = performance.now();
    while (performance.now() - t < 60); // the work takes longer
    for (let d = 2; d <= 100; d++) p.update(d); // far under the seconds between lines
    p.stop();
  });
  assert.equal(lines.length, 2, lines.join('\n'));
  assert.match(lines[0]!, /^sampling 100 images: 2\/100 images \([\d.]+ images\/s\)$/);
  assert.match(lines[1]!, /^sampling 100 images: 100\/100 images in \d+\.\d s$/);
});

test('batched sampling tells its progress at every step, a batch whole only when it ends', () => {
  const { model, process: proc } = loadTextModel();
  const seen: [number, number][] = [];
  const o = unconditionalSampling(proc, { n: 5, nfe: 2, seed: 0, batch: 2 });
  sampleInBatches(model, proc, { ...o, progress: (d, n) => seen.push([d, n]) });
  // batches of 2, 2 and 1: after each step, B times the share of NFE taken (never the whole B
  // before the batch ends), so the count grows within the batches of 2 and ends at 5
  const done = seen.map(([d]) => d);
  assert.ok(done.length > 3 && done.every((d, i) => i === 0 || d >= done[i - 1]!), String(done));
  assert.deepEqual([...new Set(done)], [1, 2, 3, 4, 5]);
  assert.ok(seen.every(([, n]) => n === 5));
});

test('the corpus reader tells the bytes read, up to the whole source', () => {
  const dir = tempDir('sjd-read-progress-');
  const files = ['a.txt', 'b.txt'].map((f) => join(dir, f));
  for (const [i, f] of files.entries()) writeFileSync(f, `the quick brown fox ${i} `.repeat(40));
  const total = files.reduce((a, f) => a + readFileSync(f).length, 0);
  const reads: number[] = [];
  normaliseSource({ source: dir, kind: 'files', files }, () => {}, {
    chunkBytes: 64,
    progress: (read, all) => {
      assert.equal(all, total);
      reads.push(read);
    },
  });
  assert.ok(reads.length > 10);
  assert.ok(reads.every((r, i) => i === 0 || r > reads[i - 1]!));
  assert.equal(reads.at(-1), total);
});

test('the demo says its puzzles are made before it solves them, and the solve tells its steps', () => {
  const events: string[] = [];
  runSudokuDemo(loadSudokuModel(), {
    count: 4,
    seed: 0,
    nfe: 64,
    generated: () => events.push('generated'),
    onStep: (k) => events.push(`step ${k}`),
  });
  assert.equal(events[0], 'generated');
  assert.ok(events.length > 2);
  assert.deepEqual(
    events.slice(1),
    events.slice(1).map((_, i) => `step ${i + 1}`),
  );
});

test('sample image writes sjd-samples.png when --out is not given, never over a file of yours', () => {
  const dir = tempDir('sjd-sample-default-');
  const r = sjd(dir, 'sample', 'image', '-n', '2', '--nfe', '2');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^wrote sjd-samples\.png: 2 images/);
  assert.deepEqual([...readFileSync(join(dir, 'sjd-samples.png')).subarray(1, 4)], [80, 78, 71]); // PNG
  const mine = tempDir('sjd-sample-mine-');
  writeFileSync(join(mine, 'sjd-samples.png'), 'mine');
  const refused = sjd(mine, 'sample', 'image', '-n', '2', '--nfe', '2');
  assert.equal(refused.status, 1, refused.stderr);
  assert.match(refused.stderr, /^sjd: sjd-samples\.png exists; .*--force/);
  assert.equal(readFileSync(join(mine, 'sjd-samples.png'), 'utf8'), 'mine');
  assert.ok(!existsSync(join(mine, 'sjd-samples.png.tmp')));
});

test("a sampling command's help lists the samplers its task may use", () => {
  const dir = tempDir('sjd-help-');
  for (const [args, search] of [
    [['sample', 'text'], false],
    [['sample', 'image'], false],
    [['eval', 'text'], false],
    [['solve'], true],
    [['eval', 'sudoku'], true],
  ] as const) {
    const h = sjd(dir, ...args, '--help').stdout.replace(/\s+/g, ' ');
    assert.match(h, /--sampler <name>.*\(sjd, sjd-refresh, mdlm,/, args.join(' '));
    assert.equal(h.includes('adaptive-remask'), search, args.join(' '));
  }
  const r = sjd(dir, 'sample', 'text', '--sampler', 'adaptive-remask');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /argument 'adaptive-remask' is invalid/);
});

test('sjd info names the libtorch the build found, the BLAS and the CPU', () => {
  const r = sjd(tempDir('sjd-info-'), 'info');
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    /^addon built against libtorch 1\.13 found by the system \(headers \/usr\/include, libraries \/usr\/lib\/\S+\)$/m,
  );
  assert.match(r.stdout, /^libtorch loaded from \/\S+libtorch_cpu\.so/m);
  assert.match(r.stdout, /^BLAS: \/\S+(openblas|blas)\S*\.so/m);
  assert.match(r.stdout, /^CPU: .+ \(\d+ cores/m);
});
