// Remasking retries: the retry's puzzle keeps exactly the answered cells outside the
// units that repeat a digit (widened: outside their peers too), never a clash; the starts cycle
// remask, widen, restart; and the retry loop hands each attempt the puzzle its start says (a
// fake attempt that always breaks one cell records what it was given), within the one budget.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type Attempt,
  type Board,
  CELLS,
  hasContradiction,
  nextStart,
  PEERS,
  parseBoard,
  remaskedPuzzle,
  solveByBacktracking,
  solveWithRetries,
  UNITS,
  unitRepeats,
} from '../src/tasks/sudoku/index.js';
import { EASY, EASY_SOLUTION } from './sudoku-puzzles.js';

const puzzle = parseBoard(EASY);
const solution = parseBoard(EASY_SOLUTION);
const clues = (b: Board) => b.filter((v) => v > 0).length;

/** The solution with the first blank given its right-hand neighbour's digit (a repeat in its row). */
function broken(p: Board, s: Board): Board {
  const a = s.slice();
  const i = [...p.keys()].find((k) => p[k] === 0 && k % 9 < 8)!;
  a[i] = s[i + 1]!;
  return a;
}

test('remaskedPuzzle keeps the answered cells outside the broken units (widened: outside their peers), never a clash', () => {
  const answer = broken(puzzle, solution);
  const bad = new Set<number>();
  for (let u = 0; u < 27; u++)
    if (unitRepeats(answer, u).length > 0) for (const i of UNITS[u]!) bad.add(i);
  assert.ok(bad.size >= 9);
  const wide = new Set(bad);
  for (const i of bad) for (const p of PEERS[i]!) wide.add(p);
  for (const [widen, out] of [
    [false, bad],
    [true, wide],
  ] as const) {
    const q = remaskedPuzzle(puzzle, answer, widen);
    for (let i = 0; i < CELLS; i++) {
      const want = puzzle[i]! > 0 ? puzzle[i] : out.has(i) ? 0 : solution[i];
      assert.equal(q[i], want, `cell ${i}, widen ${widen}`);
    }
    assert.ok(!hasContradiction(q));
    assert.ok(clues(q) > clues(puzzle) || widen, 'the kept cells add clues');
  }
  // an answer without repeats is kept whole
  assert.deepEqual(remaskedPuzzle(puzzle, solution, false), solution);
  assert.deepEqual(
    ['restart', 'remask', 'widen'].map((s) => nextStart(s as 'restart')),
    ['remask', 'widen', 'restart'],
  );
});

test('retries with remask: each attempt gets the start its turn says, all within the one budget', () => {
  const given: number[] = []; // clues of each puzzle an attempt received (one board)
  const attempt: Attempt = function* (ps: Board[], _budgets: readonly number[]) {
    given.push(clues(ps[0]!));
    yield null;
    const s = solveByBacktracking(ps[0]!)!;
    return { boards: [broken(ps[0]!, s)], problems: [['broken']], nfe: [2] };
  };
  const run = (remask: boolean) => {
    given.length = 0;
    const gen = solveWithRetries(
      attempt,
      [puzzle],
      { nfe: 12, seed: 3, retries: 8, minNfe: 1, remask },
      'none',
    );
    let step = gen.next();
    while (!step.done) step = gen.next();
    return step.value;
  };
  const plain = run(false);
  assert.deepEqual(given, new Array(6).fill(clues(puzzle))); // every retry from the puzzle
  assert.equal(plain.nfe[0], 12);
  const r = run(true);
  assert.equal(r.attempts[0], 6);
  assert.equal(r.nfe[0], 12);
  const c0 = clues(puzzle);
  // first attempt, remask, widen, restart, remask, widen
  assert.equal(given[0], c0);
  assert.ok(given[1]! > given[2]! && given[2]! >= c0, `${given}`);
  assert.equal(given[3], c0);
  assert.ok(given[4]! > c0 && given[5]! <= given[4]!, `${given}`);
  assert.equal(r.solved, 0);
});

test('a retry round is one attempt over every failing board, each under the budget it has left', () => {
  // Three boards with 0, 1 and 2 cells given beyond the puzzle; a fake attempt that never solves
  // spends 2, 3 and 4 NFE on them (told apart by their clues, which a symmetry keeps).
  const c0 = clues(puzzle);
  const blanks = [...puzzle.keys()].filter((i) => puzzle[i] === 0);
  const boards = [0, 1, 2].map((extra) => {
    const b = puzzle.slice();
    for (const i of blanks.slice(0, extra)) b[i] = solution[i]!;
    return b;
  });
  const calls: number[][] = [];
  const attempt: Attempt = function* (ps: Board[], budgets: readonly number[]) {
    calls.push([...budgets]);
    yield null;
    return {
      boards: ps.map((p) => broken(p, solveByBacktracking(p)!)),
      problems: ps.map(() => ['broken']),
      nfe: ps.map((p, k) => Math.min(budgets[k]!, clues(p) - c0 + 2)),
    };
  };
  const gen = solveWithRetries(
    attempt,
    boards,
    { nfe: 12, seed: 3, retries: 8, minNfe: 1 },
    'none',
  );
  let step = gen.next();
  while (!step.done) step = gen.next();
  assert.deepEqual(calls, [[12, 12, 12], [10, 9, 8], [8, 6, 4], [6, 3], [4], [2]]);
  assert.deepEqual(step.value.nfe, [12, 12, 12]);
  assert.deepEqual(step.value.attempts, [6, 4, 3]);
});
