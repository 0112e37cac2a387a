// `sjd train --resume` ignores no flag (cli/resume.ts): the run trains on the data it started
// with (its recorded --data, used when --data is absent; another --data, or a data file changed
// since, is refused naming the reason), --steps beyond its end extends it, a flag that sets the
// run's config (--size, --process, ...) is refused unless it is the run's, and a run of another
// task is named in one line. --stop-after is a requested stop: exit 0, no "interrupted". A run
// resumed with no flags is the uninterrupted run, bit for bit. A run keeps the evaluation it
// started with, and its data path is absolute, so it resumes from another folder.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { sudokuConfig } from '../src/tasks/sudoku/presets.js';
import { formatSudokuCsv } from '../src/tasks/sudoku/puzzle/csv.js';
import { generatePuzzles } from '../src/tasks/sudoku/puzzle/generator.js';
import * as torch from '../src/torch/index.js';
import { checkRunData, learningRate, RUN_FILES, withSteps } from '../src/train/index.js';
import { tempDir } from './tmp.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const sjd = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, SJD_THREADS: '1' },
    timeout: 300_000,
  });

const dir = tempDir('sjd-resume-flags-');
const [a, b] = [join(dir, 'a.csv'), join(dir, 'b.csv')];
writeFileSync(a, formatSudokuCsv(generatePuzzles(24, { seed: 11 })));
writeFileSync(b, formatSudokuCsv(generatePuzzles(24, { seed: 12 })));
const held = ['--eval-data', a, '--eval-size', '2', '--eval-nfe', '2'];
const train = (out: string, ...more: string[]) =>
  sjd('train', 'sudoku', '--size', 'tiny', '--steps', '4', '--out', out, ...held, ...more);
const resume = (out: string, ...more: string[]) =>
  sjd('train', 'sudoku', '--resume', '--out', out, ...held, ...more);
const oneLine = (r: ReturnType<typeof sjd>, re: RegExp) => {
  assert.notEqual(r.status, 0, r.stdout);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr.trim(), re);
};
const weights = (run: string) =>
  torch.loadSafetensors(join(run, 'checkpoint', 'model.safetensors')).tensors;

test('--stop-after is a requested stop (exit 0); resumed with no flags, the run is the uninterrupted one bit for bit, on its recorded data', () => {
  const whole = join(dir, 'whole');
  const w = train(whole, '--data', a);
  assert.equal(w.status, 0, w.stderr);
  const half = join(dir, 'half');
  const h = train(half, '--data', a, '--stop-after', '2');
  assert.equal(h.status, 0, h.stderr);
  assert.match(h.stdout, /^stopped at step 2 \(--stop-after 2; --resume continues\); /);
  assert.doesNotMatch(h.stdout + h.stderr, /interrupted/);
  assert.equal(JSON.parse(readFileSync(join(half, 'config.json'), 'utf8')).data, a);
  const r = resume(half); // no --data: the run's own
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`24 training puzzles from ${a}`));
  assert.match(r.stdout, /^finished at step 4; /);
  const [x, y] = [weights(whole), weights(half)];
  for (const k of Object.keys(x)) assert.ok(x[k]!.equal(y[k]!), k);
});

test('another --data, or a data file changed since the run started, is refused with the reason', () => {
  const run = join(dir, 'data');
  const mine = join(dir, 'mine.csv');
  copyFileSync(a, mine);
  assert.equal(train(run, '--data', mine, '--stop-after', '1').status, 0);
  oneLine(
    resume(run, '--data', b),
    new RegExp(
      `^sjd: --data ${b}: the run in --out trains on ${mine}; a resumed run keeps its data$`,
    ),
  );
  copyFileSync(b, mine); // the file the run trained on, changed
  oneLine(
    resume(run),
    /^sjd: .*data: its training data .*mine\.csv changed since the run started \(data hash \w+, the run's \w+\); a resumed run trains on the data it started with$/,
  );
  copyFileSync(a, mine);
  assert.equal(resume(run).status, 0);
});

test('a run with no recorded data source is checked by its data hash alone', () => {
  const run = tempDir('sjd-resume-hash-');
  writeFileSync(join(run, RUN_FILES.manifest), JSON.stringify({ dataHash: 'abc123' }));
  checkRunData(run, 'abc123', undefined);
  assert.throws(
    () => checkRunData(run, 'def456', undefined),
    /these training data are not the ones the run started with \(data hash def456, the run's abc123\)/,
  );
});

test('--steps beyond the run extends it (the cosine stretched to the new end); fewer is refused', () => {
  const run = join(dir, 'extend');
  assert.equal(train(run, '--data', a).status, 0);
  oneLine(
    resume(run, '--steps', '3'),
    /^sjd: --steps 3: the run in --out is configured for 4 steps \(at step 4\); --resume extends a run, never shortens it/,
  );
  const r = resume(run, '--steps', '6', '--size', 'tiny'); // its own size is no change
  assert.equal(r.status, 0, r.stderr);
  // the tiny size's learning rate is constant; a cosine's stretch is tested below
  assert.match(r.stderr, /extending the run from 4 to 6 steps; its learning rate is constant\n/);
  assert.match(r.stdout, /^finished at step 6; /);
  const config = JSON.parse(readFileSync(join(run, 'config.json'), 'utf8'));
  assert.deepEqual([config.steps, config.lr.total], [6, 6]);
  const rows = readFileSync(join(run, 'metrics.csv'), 'utf8').trim().split('\n');
  assert.equal(rows.at(-1)!.split(',')[0], '6');
});

test("--size, --process and the config's other flags are refused unless they are the run's; a run of another task is named", () => {
  const run = join(dir, 'extend');
  oneLine(resume(run, '--size', 'cpu'), /^sjd: --size cpu: the run in --out has size tiny$/);
  oneLine(
    resume(run, '--process', 'masked'),
    /^sjd: --process masked: the run in --out trains the process sjd$/,
  );
  oneLine(resume(run, '--seed', '3'), /^sjd: --seed 3: the run in --out has seed 0$/);
  oneLine(
    resume(run, '--anchors', 'frozen'),
    /^sjd: --anchors frozen: the run in --out has anchors learned$/,
  );
  oneLine(
    sjd('train', 'text', '--resume', '--out', run),
    /^sjd: --resume: .*extend holds a sudoku run, not a text run; resume it with sjd train sudoku$/,
  );
  oneLine(
    sjd('train', 'image', '--resume', '--out', run),
    /^sjd: --resume: .*extend holds a sudoku run, not an image run; resume it with sjd train sudoku$/,
  );
});

test('an extended cosine schedule is the one a run of the new length has from the start', () => {
  const short = sudokuConfig({ size: 'cpu', steps: 1000, warmup: 100 });
  const long = sudokuConfig({ size: 'cpu', steps: 3000, warmup: 100 });
  assert.equal(short.lr.kind, 'cosine');
  const extended = withSteps(short, 3000);
  assert.deepEqual([extended.steps, extended.lr], [long.steps, long.lr]);
  for (const s of [0, 50, 999, 1000, 2000, 2999])
    assert.equal(learningRate(extended.lr, s), learningRate(long.lr, s));
  // from the resumed step on, the rate is higher than where the shorter schedule stood
  assert.ok(learningRate(extended.lr, 999) > learningRate(short.lr, 999));
});

test("a resumed run keeps its evaluation and its data, from any folder: absent flags are the run's, others refused", () => {
  const run = join(dir, 'kept');
  const start = spawnSync(
    process.execPath,
    [
      bin,
      'train',
      'sudoku',
      '--size',
      'tiny',
      '--steps',
      '4',
      '--out',
      'kept',
      '--data',
      'a.csv',
      '--eval-data',
      'b.csv',
      '--eval-size',
      '2',
      '--eval-nfe',
      '2',
      '--stop-after',
      '2',
    ],
    { encoding: 'utf8', cwd: dir, env: { ...process.env, SJD_THREADS: '1' } },
  );
  assert.equal(start.status, 0, start.stderr);
  const config = JSON.parse(readFileSync(join(run, 'config.json'), 'utf8'));
  assert.equal(config.data, a);
  assert.equal(config.dataAs, 'a.csv');
  assert.deepEqual(config.evaluation, { evalData: b, evalSize: 2, evalNfe: 2 });
  // resumed from another folder with no flags: the run's data and held-out set (the evaluation
  // switched to 200 generated puzzles, and the relative data path was not found)
  const elsewhere = join(dir, 'elsewhere');
  mkdirSync(elsewhere);
  const r = spawnSync(process.execPath, [bin, 'train', 'sudoku', '--resume', '--out', run], {
    encoding: 'utf8',
    cwd: elsewhere,
    env: { ...process.env, SJD_THREADS: '1' },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`24 training puzzles from ${a}; evaluating on 2 from ${b}`));
  oneLine(
    sjd('train', 'sudoku', '--resume', '--out', run, '--steps', '6', '--eval-size', '3'),
    /^sjd: --eval-size 3: the run in --out evaluates with --eval-size 2; a resumed run keeps its evaluation \(resume without it\)$/,
  );
  oneLine(
    sjd('train', 'sudoku', '--resume', '--out', run, '--steps', '6', '--eval-data', a),
    new RegExp(`^sjd: --eval-data ${a}: the run in --out evaluates with --eval-data ${b}; `),
  );
  const same = sjd(
    'train',
    'sudoku',
    '--resume',
    '--out',
    run,
    '--steps',
    '6',
    '--eval-data',
    b,
    '--eval-size',
    '2',
  );
  assert.equal(same.status, 0, same.stderr);
});
