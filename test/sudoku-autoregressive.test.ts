// The autoregressive baselines of tab:sudoku_schedule_ablations (Shah et al. 2024): the causal
// mask is causal, the solver order of a puzzle, a tiny model that learns a handful of puzzles,
// and `sjd compare sudoku` with the baselines and the masked process end to end.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { diffusionParameters, type SudokuCompareOptions } from '../src/lab/sudoku/options.js';
import { boardCurve, riseStep } from '../src/lab/sudoku/rise.js';
import { CausalDecoder } from '../src/model/causal-decoder.js';
import { decodeGreedy } from '../src/tasks/sudoku/autoregressive/decode.js';
import { leftToRight, solverOrder } from '../src/tasks/sudoku/autoregressive/order.js';
import {
  arNetworkConfig,
  evaluateAutoregressive,
  loadAutoregressive,
  matchedMlpHidden,
  trainAutoregressive,
} from '../src/tasks/sudoku/autoregressive/train.js';
import { loadPairs } from '../src/tasks/sudoku/data.js';
import { parseBoard } from '../src/tasks/sudoku/puzzle/board.js';
import { solveLogically } from '../src/tasks/sudoku/puzzle/logic-solver.js';
import { noGrad, TorchGenerator, tensor, tidy } from '../src/torch/index.js';
import { cliIn } from './sjd-cli.js';
import { EASY, HARD } from './sudoku-puzzles.js';
import { QQWING_FIXTURE } from './tiny-sudoku.js';
import { tempDir } from './tmp.js';

test('the causal decoder: changing a later input never changes an earlier output', () => {
  const net = new CausalDecoder(
    { sites: 81, classes: 9, width: 32, depth: 2, heads: 2, mlpHidden: 64 },
    new TorchGenerator(0),
  ).eval();
  tidy(() =>
    noGrad(() => {
      const gen = new TorchGenerator(1);
      const order = gen.rand([2, 81]).sort(-1)[1]; // [2, 81] a permutation of the cells per row
      const previous = gen.randint(0, 9, [2, 81]); // [2, 81]
      const before = net.forward(order, previous); // [2, 81, 9]
      for (const j of [1, 40, 80]) {
        // the previous digit at j and the cell position j predicts, both changed
        const p = previous.toArray();
        const o = order.toArray();
        for (const b of [0, 1]) {
          p[b * 81 + j] = (p[b * 81 + j]! + 4) % 9;
          const k = (j + 7) % 81; // swap cells j and k of the order
          [o[b * 81 + j], o[b * 81 + k]] = [o[b * 81 + k]!, o[b * 81 + j]!];
        }
        const changed = net.forward(
          tensor(o, [2, 81], 'float64').to('int64'),
          tensor(p, [2, 81], 'float64').to('int64'),
        );
        // positions before min(j, k) are unchanged; the position j itself does change
        const upTo = Math.min(j, (j + 7) % 81);
        const same = before
          .narrow(1, 0, upTo)
          .sub(changed.narrow(1, 0, upTo))
          .abs()
          .sum()
          .item();
        assert.equal(same, 0, `an input at ${j} changed an output before it`);
        const at = before.select(1, j).sub(changed.select(1, j)).abs().sum().item();
        assert.ok(at > 0, `the input at ${j} changed nothing at ${j}`);
      }
    }),
  );
});

test('the solver order: every cell once, the clues first (row-major), then the placements in order', () => {
  for (const s of [EASY, HARD]) {
    const puzzle = parseBoard(s);
    const order = solverOrder(puzzle);
    assert.equal(order.length, 81);
    assert.equal(new Set(order).size, 81);
    const clues = [...puzzle.keys()].filter((i) => puzzle[i] !== 0);
    assert.deepEqual(order.slice(0, clues.length), clues);
    const r = solveLogically(puzzle);
    assert.deepEqual(order.slice(clues.length, clues.length + r.placements.length), r.placements);
    // the placements are the cells the solver filled, each once
    assert.equal(new Set(r.placements).size, r.placements.length);
    for (const i of r.placements) assert.ok(puzzle[i] === 0 && r.grid[i] !== 0);
    // the cells it could not place come last, row-major
    const rest = order.slice(clues.length + r.placements.length);
    assert.deepEqual(
      rest,
      [...rest].sort((a, b) => a - b),
    );
    if (r.solved) assert.equal(rest.length, 0);
  }
  // EASY is solved by logic; an empty board places nothing: its order is row-major
  assert.ok(solveLogically(parseBoard(EASY)).solved);
  assert.deepEqual(
    solverOrder(new Uint8Array(81)),
    Array.from({ length: 81 }, (_, i) => i),
  );
});

test('left to right: the clues first (row-major) as a prefix, then the blanks row-major', () => {
  const puzzle = parseBoard(HARD);
  const order = leftToRight(puzzle);
  const clues = [...puzzle.keys()].filter((i) => puzzle[i] !== 0);
  const blanks = [...puzzle.keys()].filter((i) => puzzle[i] === 0);
  assert.deepEqual(order, [...clues, ...blanks]);
  // every blank comes after every clue: each blank is predicted with the whole puzzle in view
  const firstBlank = order.findIndex((i) => puzzle[i] === 0);
  assert.equal(firstBlank, clues.length);
});

test("the baselines' MLP width matches the diffusion network's parameter count", () => {
  for (const network of [undefined, 'plain']) {
    const target = diffusionParameters({ size: 'cpu', network } as SudokuCompareOptions);
    const h = matchedMlpHidden('cpu', target);
    const count = (w: number) =>
      new CausalDecoder(arNetworkConfig('cpu', w), new TorchGenerator(0)).numParameters();
    const slope = count(h + 1) - count(h);
    // the nearest width: within half a unit's parameters of the target
    assert.ok(Math.abs(count(h) - target) <= slope / 2, `${count(h)} against ${target}`);
    assert.ok(h > arNetworkConfig('cpu').mlpHidden, 'no time embedding: the MLP is wider');
  }
});

test('a tiny autoregressive model trained on four easy puzzles decodes them well above chance', () => {
  const pairs = loadPairs(QQWING_FIXTURE, 4);
  const dir = join(tempDir(), 'ar');
  const run = {
    size: 'tiny',
    order: 'solver' as const,
    seed: 0,
    steps: 300,
    augment: 'none' as const,
  };
  assert.ok(trainAutoregressive(dir, run, { train: pairs, held: pairs }));
  const { net } = loadAutoregressive(dir);
  const s = evaluateAutoregressive(net, pairs, 'solver');
  // Chance is 1/9 of the blanks (11%) and about 0 boards. Memorising four boards in the solver
  // order (each blank follows from the cells before it), 300 steps solve all four here (seed 0:
  // board and cell accuracy 1; left-to-right, 3 of 4 boards and 90% of the cells): the bounds,
  // 80% of the cells and 2 of 4 boards, leave room for another machine's arithmetic.
  assert.ok(s.cell_accuracy >= 0.8, `cell accuracy ${s.cell_accuracy}`);
  assert.ok(s.board_accuracy >= 0.5, `board accuracy ${s.board_accuracy}`);
  // the answers keep every clue and fill every cell
  const d = decodeGreedy(net, pairs.puzzles, 'solver');
  d.boards.forEach((b, n) => {
    for (let i = 0; i < 81; i++) {
      assert.ok(b[i]! >= 1 && b[i]! <= 9);
      if (pairs.puzzles[n]![i]) assert.equal(b[i], pairs.puzzles[n]![i]);
    }
  });
});

// the scripts in the repository (tests run from dist/test)
const keepScript = fileURLToPath(new URL('../../scripts/keep-results.sh', import.meta.url));
const restoreScript = fileURLToPath(new URL('../../scripts/restore-results.sh', import.meta.url));

test('sjd compare sudoku --models ar-ltr,ar-solver,masked runs end to end', () => {
  const dir = tempDir();
  const cli = cliIn(dir);
  const args = [
    'compare',
    'sudoku',
    '--size',
    'tiny',
    '--steps',
    '10',
    '--seeds',
    '0',
    '--models',
    'ar-ltr,ar-solver,masked',
    '--data',
    QQWING_FIXTURE,
    '--eval-data',
    QQWING_FIXTURE,
    '--limit',
    '8',
    '--nfe',
    '4',
    '--adaptive-nfe',
    '4',
    '--out',
    'cmp',
    '--doc',
    'report.md',
  ];
  cli.ok(...args);
  const md = readFileSync(join(dir, 'report.md'), 'utf8');
  assert.match(
    md,
    /\| Autoregressive, left-to-right \| [\d.]+ \+- [\d.]+ \| [\d.]+ \| [\d.]+ \| NA \|/,
  );
  assert.match(
    md,
    /\| Autoregressive, solver order \| [\d.]+ \+- [\d.]+ \| [\d.]+ \| [\d.]+ \| NA \|/,
  );
  assert.match(md, /\| MDLM \(masked\) \| [\d.]+ \+- [\d.]+ \|/);
  // the rise column reads the run's own held-out curve, then the collapsed count
  const rise = riseStep(boardCurve(join(dir, 'cmp', 'masked-seed0')));
  assert.match(md, new RegExp(`\\| MDLM \\(masked\\) \\|.* \\| ${rise ?? 'none'} \\| [01]/1 \\|`));
  for (const m of ['ar-ltr', 'ar-solver', 'masked'])
    assert.ok(existsSync(join(dir, 'cmp', `${m}-seed0`, 'final-eval.json')), m);
  // a second run reads the cached scores and writes the same table
  cli.ok(...args);
  assert.equal(readFileSync(join(dir, 'report.md'), 'utf8'), md);
  // kept without their weights (scripts/keep-results.sh) and brought back on a fresh machine, the
  // runs resume the comparison from their cached scores: nothing is trained or decoded again
  for (const [script, from, to] of [
    [keepScript, 'cmp', 'kept'],
    [restoreScript, 'kept', 'cmp2'],
  ] as const) {
    const r = spawnSync('bash', [script, join(dir, from), join(dir, to)], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }
  assert.ok(!existsSync(join(dir, 'cmp2', 'masked-seed0', 'checkpoint')));
  const resumed = cli.run(
    ...args.map((a) => (a === 'cmp' ? 'cmp2' : a === 'report.md' ? join('r2', 'report.md') : a)),
  );
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.doesNotMatch(resumed.stderr, /training|decoding|solving/);
  const table = (text: string) => text.replace(/^Reproduce: .*$/m, '');
  assert.equal(table(readFileSync(join(dir, 'r2', 'report.md'), 'utf8')), table(md));
  // a name that is neither a process nor a baseline is refused in one line
  const bad = cli.run(...args.slice(0, 8), '--models', 'ar-rtl', '--out', 'x', '--doc', 'x.md');
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /expected a comma-separated list of models/);
});
