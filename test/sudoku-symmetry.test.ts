// Augmentation of Sudoku training boards by its symmetries (src/tasks/sudoku/symmetry.ts and
// SudokuTask.batch): every augmented board is a valid solution of its augmented puzzle, which
// keeps a unique solution; the cell permutations are bijections that keep the constraint graph
// and move a cell to each of the 81 positions uniformly (seeded chi-square); transposition has
// probability 1/2; the same seed gives the same batch; the old boolean setting still works. The
// board-level draws (a solve's retries): the image of a solution solves the image of its
// puzzle, which keeps one solution, and the inverse gives both back exactly.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CELLS,
  colOf,
  countSolutions,
  generatedPairs,
  isValidSolution,
  PEERS,
  rowOf,
} from '../src/tasks/sudoku/index.js';
import {
  applySymmetry,
  augmentBoards,
  drawBoardSymmetries,
  drawCellPermutations,
  invertSymmetry,
} from '../src/tasks/sudoku/symmetry.js';
import { SudokuTask } from '../src/tasks/sudoku/task.js';
import { type Tensor, TorchGenerator, tensor, tidy } from '../src/torch/index.js';

const pairs = generatedPairs(12, 5);
const task = (augment: SudokuTask['opts']['augment']) =>
  new SudokuTask(pairs, pairs, { evalSize: 1, evalNfe: 1, evalSampler: 'confidence', augment });

/** Rows of an int64/bool [B, 81] tensor as plain arrays. */
const rows = (t: Tensor): number[][] => {
  const flat = t.to('int64').toArray();
  return Array.from({ length: t.size(0) }, (_, b) => flat.slice(b * CELLS, (b + 1) * CELLS));
};

test('augmented boards are valid solutions of their augmented puzzles, which stay unique', () => {
  const full = task('full');
  const gen = new TorchGenerator(1);
  let boards = 0;
  for (let draw = 0; draw < 8; draw++) {
    tidy(() => {
      const { x0, condition } = full.batch(64, gen);
      const sols = rows(x0);
      const clues = rows(condition);
      for (let b = 0; b < sols.length; b++) {
        const solution = Uint8Array.from(sols[b]!, (d) => d + 1);
        assert.ok(isValidSolution(solution), `draw ${draw} board ${b} is not a valid grid`);
        const puzzle = solution.map((d, i) => (clues[b]![i] ? d : 0));
        const n = clues[b]!.reduce((a, c) => a + c, 0);
        assert.ok(pairs.puzzles.some((p) => p.filter((d) => d > 0).length === n));
        // clues moved with their digits: the augmented puzzle still has exactly this solution
        assert.equal(countSolutions(puzzle, 2), 1, `draw ${draw} board ${b}: not unique`);
        boards++;
      }
    });
  }
  assert.equal(boards, 512);
});

test('a cell permutation is a bijection that keeps rows, columns and boxes as units', () => {
  const src = rows(drawCellPermutations(200, new TorchGenerator(2)));
  for (const s of src) {
    assert.deepEqual(
      [...s].sort((a, b) => a - b),
      Array.from({ length: CELLS }, (_, i) => i),
    );
    for (let i = 0; i < CELLS; i++) {
      const peers = new Set(PEERS[s[i]!]);
      for (const j of PEERS[i]!) assert.ok(peers.has(s[j]!), 'peers stay peers');
    }
  }
});

test('each cell reaches each of the 81 positions uniformly; transposition has probability 1/2', () => {
  const N = 8100; // 100 expected per position
  const src = rows(drawCellPermutations(N, new TorchGenerator(3)));
  for (const cell of [0, 40, 77]) {
    const counts = new Array<number>(CELLS).fill(0);
    for (const s of src) counts[s.indexOf(cell)]!++;
    assert.ok(Math.min(...counts) > 0, `cell ${cell} misses a position`);
    // chi-square with 80 degrees of freedom: mean 80, sd 12.6; 160 is p < 1e-9
    const chi2 = counts.reduce((a, c) => a + (c - 100) ** 2 / 100, 0);
    assert.ok(chi2 < 160, `cell ${cell}: chi-square ${chi2.toFixed(1)}`);
  }
  // transposed boards send the new row 0 to one old column
  const flips = src.filter((s) => new Set(s.slice(0, 9).map(colOf)).size === 1).length;
  const rowsKept = src.filter((s) => new Set(s.slice(0, 9).map(rowOf)).size === 1).length;
  assert.equal(flips + rowsKept, N);
  assert.ok(Math.abs(flips / N - 0.5) < 5 * Math.sqrt(0.25 / N), `transposed ${flips / N}`);
  // the bands are permuted within independently: cells 0 and 27 (column 1, rows 1 and 4) land
  // at the same offset within their bands (or stacks, when transposed) 1/3 of the time
  const offsets = (p: number) => `${rowOf(p) % 3},${colOf(p) % 3}`;
  const same = src.filter((s) => offsets(s.indexOf(0)) === offsets(s.indexOf(27))).length;
  assert.ok(Math.abs(same / N - 1 / 3) < 5 * Math.sqrt(2 / 9 / N), `same offset ${same / N}`);
});

test('digit relabelling is uniform: digit 0 of a board becomes each digit 1/9 of the time', () => {
  const N = 9000;
  const x0 = tensor(pairs.solutions[0]!, [1, CELLS], 'int64').sub(1).expand([N, CELLS]);
  const clues = tensor(new Uint8Array(CELLS), [1, CELLS], 'bool').expand([N, CELLS]);
  const out = augmentBoards(x0.contiguous(), clues.contiguous(), 'digits', new TorchGenerator(4));
  const where0 = pairs.solutions[0]!.indexOf(1);
  const counts = new Array<number>(9).fill(0);
  for (const s of rows(out.x0)) counts[s[where0]!]!++;
  const chi2 = counts.reduce((a, c) => a + (c - 1000) ** 2 / 1000, 0); // 8 dof; 40 is p < 1e-5
  assert.ok(chi2 < 40, `chi-square ${chi2.toFixed(1)}: ${counts}`);
  assert.deepEqual(rows(out.clues)[0], new Array(CELLS).fill(0), "'digits' leaves the clues");
});

test('the same seed gives the same batch; the settings true/false mean digits/none', () => {
  const a = task('full').batch(32, new TorchGenerator(9));
  const b = task('full').batch(32, new TorchGenerator(9));
  assert.deepEqual(rows(a.x0), rows(b.x0));
  assert.deepEqual(rows(a.condition), rows(b.condition));
  const c = task('full').batch(32, new TorchGenerator(10));
  assert.notDeepEqual(rows(a.x0), rows(c.x0));
  for (const [flag, name] of [
    [true, 'digits'],
    [false, 'none'],
  ] as const) {
    const u = task(flag).batch(16, new TorchGenerator(11));
    const v = task(name).batch(16, new TorchGenerator(11));
    assert.deepEqual(rows(u.x0), rows(v.x0));
    assert.deepEqual(rows(u.condition), rows(v.condition));
  }
  // 'none' hands out the training solutions as they are
  const stored = pairs.solutions.map((s) => Array.from(s, (d) => d - 1).join());
  for (const s of rows(task('none').batch(16, new TorchGenerator(12)).x0))
    assert.ok(stored.includes(s.join()));
  assert.throws(
    () => task('mirror' as 'full'),
    (e: Error) => /^sudoku: augment 'mirror' is not one of none, digits, full$/.test(e.message),
  );
});

test('a board symmetry maps a puzzle and its solution to a pair; its inverse gives them back', () => {
  const syms = drawBoardSymmetries(pairs.puzzles.length, new TorchGenerator(7));
  const moved = new Set<string>();
  pairs.puzzles.forEach((puzzle, b) => {
    const s = syms[b]!;
    const solution = pairs.solutions[b]!;
    const [p, x] = [applySymmetry(puzzle, s), applySymmetry(solution, s)];
    assert.ok(isValidSolution(x), `board ${b}: the image is not a valid grid`);
    for (let i = 0; i < CELLS; i++) assert.ok(p[i] === 0 || p[i] === x[i], `board ${b} cell ${i}`);
    assert.equal(p.filter((d) => d === 0).length, puzzle.filter((d) => d === 0).length);
    assert.equal(countSolutions(p, 2), 1);
    assert.deepEqual(invertSymmetry(p, s), puzzle);
    assert.deepEqual(invertSymmetry(x, s), solution);
    moved.add(Array.from(x).join(''));
  });
  assert.equal(moved.size, pairs.puzzles.length);
  // Seeded: the same generator seed draws the same symmetries.
  assert.deepEqual(drawBoardSymmetries(syms.length, new TorchGenerator(7)), syms);
});
