// End-to-end Sudoku commands on a tiny model trained here on 40 puzzles generated here: train
// (run folder), solve one puzzle and a file (a tiny model's boards may break rules: then exit
// status 3 and the reason), eval with --json (the adaptive sampler's NFE per board, mean and
// max, or the confidence policy's), and one-line errors for bad input.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_UNDOS } from '../src/sampling/index.js';
import {
  countSearchNodes,
  DEFAULT_ADAPTIVE_NFE,
  DEFAULT_RETRIES,
  generateByNodes,
  nodeBucket,
  readStrategyCsv,
  strategyStats,
  writeStrategyCsv,
} from '../src/tasks/sudoku/index.js';
import * as torch from '../src/torch/index.js';
import { withoutProgress } from './sjd-cli.js';
import { tempDir } from './tmp.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const sjd = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
const qqwing = new URL(
  '../../test/fixtures/sudoku/qqwing_noguess_test_first320.csv',
  import.meta.url,
).pathname;

const dir = tempDir('sjd-sudoku-cli-');
const data = join(dir, 'puzzles.csv'); // the first 40 qqwing pairs as quizzes,solutions, LF
writeFileSync(
  data,
  readFileSync(qqwing, 'utf8')
    .split('\n')
    .slice(0, 41)
    .map((line) => line.split(',').slice(0, 2).join(','))
    .join('\n'),
);
const run = join(dir, 'run');
/** The note a solve adds when it retried boards (retry.ts), or nothing. */
const RETRIED = String.raw`(?: \(first attempt \d+\.\d\d%; \d+ boards? retried\))?`;

/**
 * A solved board exits 0; a board that breaks a rule exits 3 and says how (besides the plain
 * progress lines of a long `solve --file`, whose stderr here is not a terminal).
 */
const solvedOrReported = (r: ReturnType<typeof sjd>) => {
  assert.ok(r.status === 0 || r.status === 3, `status ${r.status}: ${r.stderr}`);
  const said = withoutProgress(r.stderr);
  if (r.status === 3)
    assert.match(said.trim(), /^sjd: (not solved: .*|\d+ of \d+ boards not solved; .*)$/);
  else assert.equal(said, '');
};
const puzzle = readFileSync(data, 'utf8').split('\n')[1]!.split(',')[0]!;

test('sjd train sudoku writes a run folder and reports its evaluation', () => {
  const r = sjd(
    'train',
    'sudoku',
    '--size',
    'tiny',
    '--steps',
    '12',
    '--out',
    run,
    '--data',
    data,
    '--eval-data',
    data,
    '--eval-size',
    '8',
    '--eval-nfe',
    '4',
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    /finished at step 12; board_accuracy \d\.\d{4}, cell_accuracy \d\.\d{4}; takeoff/,
  );
  for (const f of [
    'config.json',
    'manifest.json',
    'metrics.csv',
    'metrics.svg',
    'checkpoint/ema.safetensors',
  ])
    assert.ok(existsSync(join(run, f)), f);
  const again = sjd('train', 'sudoku', '--size', 'tiny', '--out', run, '--data', data);
  assert.notEqual(again.status, 0);
  assert.match(again.stderr, /^sjd: .* already holds a run; pass --resume/);
});

test('--init warm-starts a new run from a run with the same network, and records which weights', () => {
  const warm = join(dir, 'warm');
  const args = ['--data', data, '--eval-data', data, '--eval-size', '2', '--eval-nfe', '2'];
  const r = sjd(
    'train',
    'sudoku',
    '--size',
    'tiny',
    '--steps',
    '1',
    '--lr',
    '1e-8',
    '--init',
    run,
    '--out',
    warm,
    ...args,
  );
  assert.equal(r.status, 0, r.stderr);
  const source = join(run, 'checkpoint', 'ema.safetensors');
  const sha256 = createHash('sha256').update(readFileSync(source)).digest('hex');
  assert.deepEqual(JSON.parse(readFileSync(join(warm, 'config.json'), 'utf8')).init, {
    from: run,
    sha256,
  });
  // one step at lr 1e-8: the new run's weights are the source's EMA weights
  const a = torch.loadSafetensors(source).tensors;
  const b = torch.loadSafetensors(join(warm, 'checkpoint', 'model.safetensors')).tensors;
  assert.deepEqual(Object.keys(b).sort(), Object.keys(a).sort());
  for (const k of Object.keys(a)) assert.ok(b[k]!.sub(a[k]!).abs().amax().item() < 1e-5, k);
  const other = sjd(
    'train',
    'sudoku',
    '--size',
    'cpu',
    '--init',
    run,
    '--out',
    join(dir, 'w2'),
    ...args,
  );
  assert.equal(other.status, 1);
  assert.match(
    other.stderr,
    /^sjd: --init .*: its network does not fit this run's \(.*\[.*\] vs \[.*\]\)$/m,
  );
  assert.ok(!existsSync(join(dir, 'w2')), 'a refused warm start leaves no folder');
  // weight-tied loops add no parameters: a 2-loop network may start from a 1-loop run
  const looped = join(dir, 'w3');
  const l2 = ['--size', 'tiny', '--steps', '1', '--loops', '2', '--init', run, '--out', looped];
  assert.equal(sjd('train', 'sudoku', ...l2, ...args).status, 0);
  const both = sjd('train', 'sudoku', '--init', run, '--resume', '--out', warm, ...args);
  assert.match(both.stderr, /^sjd: --init starts a new run; --resume continues one/);
});

test('--anchors frozen keeps the anchors out of training', () => {
  const frozen = join(dir, 'frozen');
  const r = sjd(
    'train',
    'sudoku',
    '--size',
    'tiny',
    '--steps',
    '3',
    '--anchors',
    'frozen',
    '--out',
    frozen,
    '--data',
    data,
    '--eval-data',
    data,
    '--eval-size',
    '2',
    '--eval-nfe',
    '2',
  );
  assert.equal(r.status, 0, r.stderr);
  assert.equal(
    JSON.parse(readFileSync(join(frozen, 'config.json'), 'utf8')).model.anchors,
    'frozen',
  );
  const optim = readFileSync(join(frozen, 'checkpoint', 'optim.safetensors'));
  const header = optim.subarray(8, 8 + Number(optim.readBigUInt64LE(0))).toString();
  assert.doesNotMatch(header, /anchors/, 'no optimiser state for frozen anchors');
});

test('--deep-supervision trains a looped network on every loop, resumes, and needs --loops 2 or more', () => {
  const deep = join(dir, 'deep');
  const flags = ['--size', 'tiny', '--data', data, '--eval-data', data, '--eval-size', '2'];
  const r = sjd(
    'train',
    'sudoku',
    '--steps',
    '2',
    '--loops',
    '2',
    '--deep-supervision',
    '--out',
    deep,
    ...flags,
  );
  assert.equal(r.status, 0, r.stderr);
  const config = JSON.parse(readFileSync(join(deep, 'config.json'), 'utf8'));
  assert.equal(config.deepSupervision, true);
  assert.equal(config.model.loops, 2);
  const losses = readFileSync(join(deep, 'metrics.csv'), 'utf8');
  assert.doesNotMatch(losses, /NaN/);
  const more = sjd('train', 'sudoku', '--resume', '--steps', '4', '--out', deep, ...flags);
  assert.equal(more.status, 0, more.stderr);
  const flat = join(dir, 'deep-flat');
  const bad = sjd('train', 'sudoku', '--steps', '2', '--deep-supervision', '--out', flat, ...flags);
  assert.equal(bad.status, 1);
  assert.equal(
    bad.stderr.trim().split('\n').at(-1),
    "sjd: the run's config: deepSupervision: needs a transformer that loops its blocks (model.loops >= 2)",
  );
  assert.ok(!existsSync(flat), 'nothing written');
});

test('sjd solve prints a full grid that keeps the clues', () => {
  const r = sjd('solve', puzzle, '--model', run, '--nfe', '4');
  solvedOrReported(r);
  const last = r.stdout.trim().split('\n').pop()!;
  assert.match(last, /^[1-9]{81}$/);
  for (let i = 0; i < 81; i++) if (puzzle[i] !== '0') assert.equal(last[i], puzzle[i]);
});

test('sjd solve --trace shows the board filling in, step by step', () => {
  const r = sjd(
    'solve',
    puzzle,
    '--model',
    run,
    '--nfe',
    '6',
    '--trace',
    '--sampler',
    'confidence',
  );
  solvedOrReported(r);
  const counts = [
    ...r.stdout.matchAll(/step (\d+) \(t = (\d\.\d{3})\): (\d+) cells committed/g),
  ].map((m) => Number(m[3]));
  assert.equal(counts.length, 4, 'the start and 3 steps of 2 NFE');
  assert.equal(counts[0], puzzle.replace(/0/g, '').length, 'the clues first');
  assert.equal(counts.at(-1), 81);
  for (let k = 1; k < counts.length; k++) assert.ok(counts[k]! >= counts[k - 1]!);
});

test('sjd solve --file --out writes quizzes,solutions,status', () => {
  const out = join(dir, 'solved.csv');
  const r = sjd('solve', '--file', data, '--out', out, '--model', run, '--nfe', '4');
  solvedOrReported(r);
  const lines = readFileSync(out, 'utf8').trim().split('\n');
  assert.equal(lines[0], 'quizzes,solutions,status');
  assert.equal(lines.length, 41);
  for (const line of lines.slice(1)) assert.match(line, /^[0-9]{81},[1-9]{81},(solved|[^,]+)$/);
  const solved = lines.filter((l) => l.endsWith(',solved')).length;
  assert.match(
    r.stdout.trim(),
    new RegExp(
      `^solved ${solved} of 40 puzzles into ${out} \\(adaptive-remask sampler \\(probability >= 0\\.9999, ${DEFAULT_UNDOS} undos\\); NFE per board mean \\d+\\.\\d, max [1-4] of 4\\)${RETRIED}$`,
    ),
  );
  assert.equal(r.status, solved === 40 ? 0 : 3);
});

test('sjd eval sudoku --json ends with the metrics as one JSON object', () => {
  const r = sjd(
    'eval',
    'sudoku',
    '--model',
    run,
    '--data',
    data,
    '--limit',
    '6',
    '--nfe',
    '4',
    '--json',
  );
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout.trim().split('\n').pop()!);
  assert.equal(j.boards, 6);
  for (const k of ['solve_rate', 'cell_accuracy', 'boards_per_s', 'nfe_mean', 'nfe_max'])
    assert.equal(typeof j[k], 'number', k);
  assert.ok(j.cell_accuracy >= 0 && j.cell_accuracy <= 1);
  // Sudoku's rules and the adaptive sampler that undoes what breaks them by default: NFE per
  // board within the budget of 4.
  assert.equal(j.sampler, 'adaptive-remask');
  assert.deepEqual(j.commit, { by: 'probability', threshold: 0.9999, undos: DEFAULT_UNDOS });
  // Every attempt within the one budget (retry.ts); the first attempt solves no more.
  assert.ok(j.nfe_mean >= 1 && j.nfe_mean <= j.nfe_max && j.nfe_max <= 4, r.stdout);
  assert.equal(j.retries, DEFAULT_RETRIES);
  assert.ok(j.first_attempt_solve_rate <= j.solve_rate && Number.isInteger(j.retried), r.stdout);
  assert.match(
    r.stdout,
    new RegExp(
      `^6 boards: .* boards/s \\(adaptive-remask sampler \\(probability >= 0\\.9999, ${DEFAULT_UNDOS} undos\\); NFE per board mean \\d+\\.\\d, max [1-4] of 4\\)${RETRIED}$`,
      'm',
    ),
  );
  // Split by difficulty: this file has no strategy columns, so the logical solver classes it.
  assert.equal(j.difficulty_from, 'solver');
  const split = Object.values(j.by_difficulty) as { boards: number; nfe_mean: number }[];
  assert.equal(
    split.reduce((a, d) => a + d.boards, 0),
    6,
  );
  const nfeTotal = split.reduce((a, d) => a + d.nfe_mean * d.boards, 0);
  assert.ok(Math.abs(nfeTotal / 6 - j.nfe_mean) < 1e-9, 'class NFE means average to the whole');
  assert.match(r.stdout, /^ {2}\(difficulty by the logical solver\)$/m);
  // The paper's policy on request, without the rules: every board takes the budget's 3 NFE (2 a
  // step, 1 to fill).
  const c = sjd(
    'eval',
    'sudoku',
    '--model',
    run,
    '--data',
    data,
    '--limit',
    '6',
    '--nfe',
    '4',
    '--sampler',
    'confidence',
    '--no-rules',
    '--json',
  );
  assert.equal(c.status, 0, c.stderr);
  const k = JSON.parse(c.stdout.trim().split('\n').pop()!);
  assert.equal(k.sampler, 'confidence');
  assert.deepEqual([j.rules, k.rules], [true, false]);
  assert.equal(k.commit, undefined);
  assert.deepEqual([k.nfe_mean, k.nfe_max], [3, 3]);
  assert.match(c.stdout, /\(confidence policy; NFE per board mean 3\.0, max 3 of 4\)$/m);
});

test('--precision bfloat16 samples the network in bfloat16: the shipped model solves 40 boards in two workers and one puzzle alone; a bad precision is refused in one line', () => {
  // batches of 8 in parts of four batches: two parts, one a worker
  const r = sjd(
    'eval',
    'sudoku',
    '--data',
    data,
    '--limit',
    '40',
    '--batch',
    '8',
    '--workers',
    '2',
    '--precision',
    'bfloat16',
    '--json',
  );
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout.trim().split('\n').pop()!);
  assert.equal(j.precision, 'bfloat16');
  assert.equal(j.boards, 40);
  assert.equal(j.solve_rate, 1, r.stdout); // as in float32 (100% of the first 1,000, sudoku.md)
  const puzzle = readFileSync(data, 'utf8').split('\n')[1]!.split(',')[0]!;
  const one = sjd('solve', puzzle, '--precision', 'bfloat16');
  assert.equal(one.status, 0, one.stderr);
  const bad = sjd('solve', puzzle, '--precision', 'float16');
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
  assert.match(bad.stderr, /--precision .*float16.* float32, bfloat16/);
});

test('sjd export writes a float16 model folder that solves like the run', () => {
  const out = join(dir, 'model');
  const r = sjd('export', '--run', run, '--out', out);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(existsSync(join(out, 'config.json')) && existsSync(join(out, 'model.safetensors')));
  const a = sjd('solve', puzzle, '--model', run, '--nfe', '4').stdout.trim().split('\n').pop();
  const b = sjd('solve', puzzle, '--model', out, '--nfe', '4').stdout.trim().split('\n').pop();
  assert.match(b!, /^[1-9]{81}$/);
  assert.equal(a!.length, b!.length);
});

test('sjd compare sudoku trains CADD and SJD per seed, is resumable, and writes the table and plot', () => {
  const out = join(dir, 'compare');
  const doc = join(dir, 'compare.md');
  const args = [
    'compare',
    'sudoku',
    '--out',
    out,
    '--steps',
    '4',
    '--eval-every',
    '2',
    '--size',
    'tiny',
    '--seeds',
    '0',
    '--limit',
    '6',
    '--nfe',
    '4',
    '--adaptive-nfe',
    '5',
    '--attention',
    'peers',
    '--loops',
    '2',
    '--doc',
    doc,
    '--data',
    data,
    '--eval-data',
    data,
  ];
  const r = sjd(...args);
  assert.equal(r.status, 0, r.stderr);
  const md = readFileSync(doc, 'utf8');
  // method | adaptive mean +- std | per seed | NFE a board | confidence mean +- std | takeoff | collapsed
  const row =
    /^\| CADD \(hybrid, W = I\) \| \d+\.\d\d \+- \d+\.\d\d \| \d+\.\d \| (\d+\.\d) \| \d+\.\d\d \+- \d+\.\d\d \| .* \| ([01])\/1 \|$/m;
  const m = row.exec(md);
  assert.ok(m, md);
  assert.ok(Number(m[1]) >= 1 && Number(m[1]) <= 5, 'the adaptive NFE within its cap');
  assert.match(md, /\| SJD \(sudoku W, sigma_W = 1\.5\) \|/);
  // the paper's claims, seed by seed: one seed judges none
  assert.match(
    md,
    /^- \*\*SJD \(sudoku W, sigma_W = 1\.5\) above CADD \(hybrid, W = I\)\*\* \(model alone\), adaptive sampler: one seed: no verdict; per seed [+-]\d+\.\d points/m,
  );
  assert.match(
    md,
    /attention `peers`, row, column and box embeddings, 2 loop\(s\) through the blocks, augmentation `digits`/,
  );
  assert.match(md, / --loops 2 /);
  assert.match(
    md,
    / --seeds 0 --models hybrid,sjd --attention peers --loops 2 --eval-every 2 --limit 6 --nfe 4 --adaptive-nfe 5 /,
  );
  assert.match(readFileSync(doc.replace(/\.md$/, '.svg'), 'utf8'), /^<svg/);
  assert.match(md, /--eval-every 2 /);
  const config = JSON.parse(readFileSync(join(out, 'hybrid-seed0', 'config.json'), 'utf8'));
  assert.equal(config.evalEvery, 2); // --eval-every overrides the size's period (10)
  assert.equal(config.model.attention, 'peers'); // --attention reaches every run
  assert.equal(config.model.loops, 2); // and --loops
  assert.equal(config.lr.total, 4);
  // the final scores are cached beside each run, keyed by the test set, the NFE and the step
  const cache = join(out, 'sjd-seed0', 'final-eval.json');
  const first = readFileSync(cache, 'utf8');
  assert.deepEqual(Object.keys(JSON.parse(first).key).sort(), [
    'adaptiveNfe',
    'nfe',
    'puzzles',
    'step',
  ]);
  assert.equal(JSON.parse(first).key.step, 4);
  const written = statSync(cache).mtimeMs;
  const again = sjd(...args); // both runs finished: neither retrained nor evaluated again
  assert.equal(again.status, 0, again.stderr);
  assert.doesNotMatch(again.stderr, /training|resuming/);
  assert.equal(statSync(cache).mtimeMs, written, 'the cache is read, not rewritten');
  assert.equal(readFileSync(doc, 'utf8'), md);
  // another NFE: the runs are scored again and the cache holds the new key
  const other = sjd(...args.map((a, i) => (args[i - 1] === '--nfe' ? '3' : a)));
  assert.equal(other.status, 0, other.stderr);
  assert.equal(JSON.parse(readFileSync(cache, 'utf8')).key.nfe, 3);
  assert.match(readFileSync(doc, 'utf8'), /confidence 3 NFE/);
});

test('sjd demo generates puzzles and solves them with a given model', () => {
  const r = sjd('demo', '--model', run, '--count', '5', '--nfe', '4', '--show', '1');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /generated 5 puzzles without guessing/);
  assert.match(r.stdout, /puzzle 1 \(\d+ clues\): (solved|not solved)/);
  assert.match(r.stdout, /solved \d\/5 boards \(\d+\.\d%\), cell accuracy/);
  // the cap printed is the one used: --nfe, else the default sampler's
  assert.match(
    r.stdout,
    new RegExp(`NFE per board mean \\d+\\.\\d, max \\d+ of 4\\)${RETRIED}$`, 'm'),
  );
  const dflt = sjd('demo', '--model', run, '--count', '2', '--show', '0');
  assert.match(
    dflt.stdout,
    new RegExp(
      `NFE per board mean \\d+\\.\\d, max \\d+ of ${DEFAULT_ADAPTIVE_NFE}\\)${RETRIED}$`,
      'm',
    ),
  );
  // under the rules by the sampler that undoes what breaks them, unless --no-rules
  assert.match(
    dflt.stdout,
    new RegExp(
      `\\(adaptive-remask sampler \\(probability >= 0\\.9999, ${DEFAULT_UNDOS} undos\\); `,
    ),
  );
  const plain = sjd('demo', '--model', run, '--count', '2', '--show', '0', '--no-rules');
  assert.match(plain.stdout, /\(adaptive sampler \(probability >= 0\.9999\); /);
});

for (const [args, message] of [
  [['demo', 'nonsense'], /^sjd: unknown demo 'nonsense' \(sudoku, image, reverse\)$/],
  [['solve', '12345', '--model', run], /^sjd: puzzle has 5 characters, expected 81$/],
  [
    ['solve', puzzle.replace(/^./, '5').replace(/^(.)(.)/, '$15'), '--model', run],
    /^sjd: puzzle has '5' twice in row 1$/,
  ],
  [['solve', '--model', run], /^sjd: give one puzzle or --file$/],
  [
    ['eval', 'sudoku', '--model', join(dir, 'nope'), '--data', data],
    /^sjd: .*nope: not a model or run folder \(no config.json\)$/,
  ],
  [
    ['train', 'sudoku', '--out', join(dir, 'x'), '--blend', 'bogus'],
    /^sjd: option '--blend <name>' argument 'bogus' is invalid/,
  ],
] as [string[], RegExp][]) {
  test(`bad input, one line: sjd ${args.slice(0, 2).join(' ')} ...`, () => {
    const r = sjd(...args);
    assert.notEqual(r.status, 0);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr.trim(), message);
  });
}

test("sjd eval sudoku splits the solve rate by the strategies of the file's qqwing columns", () => {
  // The fixture's first 12 rows: labels from its qqwing_difficulty column (Simple and Easy need
  // singles only; Intermediate needs more).
  const rows = readFileSync(qqwing, 'utf8').trim().split('\n').slice(1, 13);
  const want = { singles: 0, 'beyond-singles': 0 };
  for (const row of rows) {
    const label = row.split(',').pop()!;
    if (label === 'Intermediate') want['beyond-singles']++;
    else want.singles++;
  }
  const r = sjd(
    'eval',
    'sudoku',
    '--model',
    run,
    '--data',
    qqwing,
    '--limit',
    '12',
    '--nfe',
    '3',
    '--json',
  );
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout.trim().split('\n').pop()!);
  assert.equal(j.difficulty_from, 'columns');
  for (const [c, n] of Object.entries(want)) {
    if (n === 0) assert.equal(j.by_difficulty[c], undefined, c);
    else {
      assert.equal(j.by_difficulty[c].boards, n, c);
      assert.ok(j.by_difficulty[c].nfe_mean >= 1 && j.by_difficulty[c].nfe_mean <= 3, c);
      assert.match(r.stdout, new RegExp(`^  ${c}: ${n} boards, solve rate \\d+\\.\\d\\d%`, 'm'));
    }
  }
  assert.match(r.stdout, /^ {2}\(difficulty from the file's strategy columns\)$/m);
});

test('sjd eval sudoku splits by search-node bucket; --by-nodes solves each bucket on its own and times it', () => {
  // 0-node puzzles from the fixture and minimal ones that need the search, interleaved
  const easy = readStrategyCsv(qqwing, 3);
  const hard = generateByNodes(3, { seed: 4, minNodes: 2 });
  const rows = [easy[0]!, hard[0]!, easy[1]!, hard[1]!, easy[2]!, hard[2]!].map((r) => ({
    ...r,
    ...strategyStats(r.puzzle),
    nodes: countSearchNodes(r.puzzle).nodes,
  }));
  const mixed = join(dir, 'mixed.csv');
  writeStrategyCsv(mixed, rows);
  const want: Record<string, number> = {};
  for (const r of rows) want[nodeBucket(r.nodes)] = (want[nodeBucket(r.nodes)] ?? 0) + 1;
  const args = ['eval', 'sudoku', '--model', run, '--data', mixed, '--nfe', '4', '--json'];
  const runs = [sjd(...args), sjd(...args, '--by-nodes')];
  for (const [k, r] of runs.entries()) {
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout.trim().split('\n').pop()!);
    assert.deepEqual(
      Object.fromEntries(
        Object.entries(j.by_nodes).map(([b, d]) => [b, (d as { boards: number }).boards]),
      ),
      want,
    );
    for (const [b, d] of Object.entries(j.by_nodes) as [string, Record<string, number>][]) {
      assert.ok(d.first_attempt_rate! <= d.solve_rate!, b);
      assert.ok(d.nfe_mean! >= 1 && d.nfe_mean! <= d.nfe_max! && d.nfe_max! <= 4, b);
      assert.equal(typeof d.boards_per_s, k === 1 ? 'number' : 'undefined', b);
      const line = new RegExp(
        `^ +${b.replace('+', '\\+')} nodes: ${d.boards} boards?, solve rate \\d+\\.\\d\\d%, first attempt \\d+\\.\\d\\d%, NFE per board mean \\d+\\.\\d, max \\d+${k === 1 ? ', \\d+\\.\\d boards/s' : ''}$`,
        'm',
      );
      assert.match(r.stdout, line);
    }
  }
  // --by-nodes: a bucket's boards are those of an eval of that bucket's puzzles alone
  const zero = join(dir, 'zero.csv');
  writeStrategyCsv(
    zero,
    rows.filter((r) => r.nodes === 0),
  );
  const alone = JSON.parse(
    sjd('eval', 'sudoku', '--model', run, '--data', zero, '--nfe', '4', '--json')
      .stdout.trim()
      .split('\n')
      .pop()!,
  );
  const grouped = JSON.parse(runs[1]!.stdout.trim().split('\n').pop()!);
  for (const key of ['solve_rate', 'cell_accuracy', 'nfe_mean', 'nfe_max'])
    assert.equal(grouped.by_nodes['0'][key], alone[key], key);
});

test('eta < 1 end to end: a tiny model trained at eta 0.5 (evaluated with the confidence policy while training) solves with every sampler that takes eta < 1; the exact ones refuse in one line', () => {
  const etaRun = join(dir, 'eta');
  const r = sjd(
    'train',
    'sudoku',
    '--size',
    'tiny',
    '--process',
    'sjd',
    '--blend',
    'identity',
    '--eta',
    '0.5',
    '--steps',
    '4',
    '--out',
    etaRun,
    '--data',
    data,
    '--eval-data',
    data,
    '--eval-size',
    '4',
    '--eval-nfe',
    '4',
    '--eval-sampler',
    'confidence',
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /finished at step 4; board_accuracy \d\.\d{4}/);
  assert.equal(JSON.parse(readFileSync(join(etaRun, 'config.json'), 'utf8')).process.eta, 0.5);
  for (const sampler of ['sjd', 'sjd-refresh', 'confidence', 'adaptive']) {
    const s = sjd(
      'solve',
      puzzle,
      '--model',
      etaRun,
      '--sampler',
      sampler,
      '--nfe',
      '8',
      '--retries',
      '0',
    );
    solvedOrReported(s);
  }
  for (const sampler of ['ancestral', 'ancestral-refresh', 'candi', 'candi-cache']) {
    const s = sjd('solve', puzzle, '--model', etaRun, '--sampler', sampler, '--nfe', '8');
    assert.equal(s.status, 1, `${sampler}: ${s.stderr}`);
    assert.equal(
      s.stderr.trim(),
      `sjd: the ${sampler} sampler needs eta = 1 (got eta 0.5): at eta < 1 the reverse step has no closed form; use the sjd sampler (Alg. 2)`,
    );
  }
});

test('solve --file streams: 4,000 rows solved and written a chunk at a time; Ctrl-C keeps the rows done as a valid file (status 130); a bad row leaves no file', async () => {
  const rows = readFileSync(data, 'utf8').trim().split('\n').slice(1); // 40 puzzles
  const big = join(dir, 'big.csv');
  writeFileSync(
    big,
    `quizzes,solutions\n${Array.from({ length: 100 }, () => rows.join('\n')).join('\n')}\n`,
  );
  const args = ['--model', run, '--nfe', '2', '--retries', '0', '--sampler', 'confidence'];
  const whole = join(dir, 'big-out.csv');
  const r = sjd('solve', '--file', big, '--out', whole, ...args);
  solvedOrReported(r);
  assert.match(r.stdout, /^solved \d+ of 4000 puzzles into /);
  /** The data rows of a written file (a tiny model's answers may break rules, so no readSudokuCsv). */
  const written = (f: string) => {
    const lines = readFileSync(f, 'utf8').trim().split('\n');
    assert.equal(lines[0], 'quizzes,solutions,status');
    for (const l of lines.slice(1)) assert.match(l, /^\d{81},\d{81},[^,]+$/);
    return lines.length - 1;
  };
  assert.equal(written(whole), 4000);
  // interrupted once rows are on disk (in the temporary file beside --out)
  const part = join(dir, 'part.csv');
  const child = spawn(process.execPath, [bin, 'solve', '--file', big, '--out', part, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const poll = setInterval(() => {
    const temp = readdirSync(dir).find((f) => f.startsWith('.part.csv.'));
    if (temp && statSync(join(dir, temp)).size > 1000 && !child.killed) child.kill('SIGINT');
  }, 20);
  const status = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(poll);
  assert.equal(status, 130, stderr);
  const kept = written(part);
  assert.ok(kept >= 256 && kept < 4000 && kept % 256 === 0, `${kept} rows kept`);
  assert.match(
    stderr,
    new RegExp(`sjd: interrupted after ${kept} puzzles?; .*part\\.csv holds their rows`),
  );
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.endsWith('.tmp')),
    [],
  );
  // a bad row far down: one line naming it, no output
  writeFileSync(
    big,
    `quizzes,solutions\n${Array.from({ length: 10 }, () => rows.join('\n')).join('\n')}\n123\n`,
  );
  const bad = sjd('solve', '--file', big, '--out', join(dir, 'bad-out.csv'), ...args);
  assert.equal(bad.status, 1);
  assert.match(
    bad.stderr.trim().split('\n').at(-1)!,
    /^sjd: .*big\.csv line 402, column 1 \(quizzes\): puzzle has 3 characters, expected 81$/,
  );
  assert.ok(!existsSync(join(dir, 'bad-out.csv')));
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.endsWith('.tmp')),
    [],
  );
});

test('solve --file holds memory flat in the number of rows: 10,000 rows solved within a 32 MiB JavaScript heap', () => {
  // Rows kept in memory would not fit: the input alone is 1.6 MB of text, and the solver before
  // streaming held about 4.6 KB a row (46 MB for these rows, 2.8 GB for 602,410). The heap cap
  // makes the check deterministic where resident memory is not (V8 grows its heap when it
  // pleases: the peak RSS of runs of 10,000 to 120,000 rows measured 473-540 MB with no trend).
  const rows = readFileSync(data, 'utf8').trim().split('\n').slice(1); // 40 puzzles
  const big = join(dir, 'flat.csv');
  writeFileSync(
    big,
    `quizzes,solutions\n${Array.from({ length: 250 }, () => rows.join('\n')).join('\n')}\n`,
  );
  const out = join(dir, 'flat-out.csv');
  const r = spawnSync(
    process.execPath,
    ['--max-old-space-size=32', bin, 'solve', '--file', big, '--out', out, '--model', run].concat([
      '--nfe',
      '2',
      '--retries',
      '0',
      '--sampler',
      'confidence',
      '--batch',
      '256', // the tiny model's passes are all overhead: few and large
    ]),
    { encoding: 'utf8' },
  );
  solvedOrReported(r);
  assert.match(r.stdout, /^solved \d+ of 10000 puzzles into /);
  assert.equal(readFileSync(out, 'utf8').trim().split('\n').length, 10001);
});
