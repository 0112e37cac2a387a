// Remasking retries: the retry's puzzle keeps exactly the answered cells outside the
// units that repeat a digit (widened: outside their peers too), never a clash; the starts cycle
// remask, widen, restart; and the retries hand each attempt the puzzle its start says (a fake
// run that always breaks one cell records what it was given), within the one budget.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RowJob } from '../src/sampling/index.js';
import {
  type Board,
  CELLS,
  hasContradiction,
  nextStart,
  PEERS,
  parseBoard,
  RetrySource,
  remaskedPuzzle,
  retrySymmetry,
  solveByBacktracking,
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

/** The board a row's condition holds (digit v from token v - 1; 0 where not conditioned). */
function conditioned(job: RowJob): Board {
  const c = job.condition!;
  return Uint8Array.from(c.tokens, (v, i) => (c.mask[i] ? v + 1 : 0));
}

/**
 * Runs `source`'s rows one at a time, each answered by `answer` (a fake sampler run) as tokens
 * of the board it returns: the retries run as soon as they are queued, ahead of the next board.
 */
function drive(source: RetrySource, answer: (job: RowJob) => { board: Board; nfe: number }) {
  for (let job = source.take(); job; job = source.take()) {
    const { board, nfe } = answer(job);
    source.done(job, { tokens: Array.from(board, (v) => v - 1), nfe });
  }
  return source.result;
}

test('retries with remask: each attempt gets the start its turn says, all within the one budget', () => {
  const given: number[] = []; // clues of each puzzle an attempt received (one board)
  const run = (remask: boolean) => {
    given.length = 0;
    const source = new RetrySource([puzzle], 0, {
      nfe: 12,
      seed: 3,
      retries: 8,
      minNfe: 1,
      remask,
    });
    return drive(source, (job) => {
      const p = conditioned(job);
      given.push(clues(p));
      return { board: broken(p, solveByBacktracking(p)!), nfe: 2 };
    });
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

test('a board retries under the budget it has left, its retries ahead of the boards not started; answers mapped back to the puzzle', () => {
  // Three boards with 0, 1 and 2 cells given beyond the puzzle; a fake run that never solves
  // spends 2, 3 and 4 NFE on them (told apart by their clues, which a symmetry keeps).
  const c0 = clues(puzzle);
  const blanks = [...puzzle.keys()].filter((i) => puzzle[i] === 0);
  const boards = [0, 1, 2].map((extra) => {
    const b = puzzle.slice();
    for (const i of blanks.slice(0, extra)) b[i] = solution[i]!;
    return b;
  });
  const calls: [number, number, number][] = []; // id, attempt, budget
  const source = new RetrySource(boards, 5, { nfe: 12, seed: 3, retries: 8, minNfe: 1 });
  const r = drive(source, (job) => {
    calls.push([job.id, job.attempt, job.budget]);
    const p = conditioned(job);
    return {
      board: broken(p, solveByBacktracking(p)!),
      nfe: Math.min(job.budget, clues(p) - c0 + 2),
    };
  });
  const budgets = (id: number) => calls.filter((c) => c[0] === id).map((c) => c[2]);
  assert.deepEqual(budgets(5), [12, 10, 8, 6, 4, 2]);
  assert.deepEqual(budgets(6), [12, 9, 6, 3]);
  assert.deepEqual(budgets(7), [12, 8, 4]);
  assert.deepEqual(
    calls.map((c) => c[0]),
    [5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7],
  );
  assert.deepEqual(r.nfe, [12, 12, 12]);
  assert.deepEqual(r.attempts, [6, 4, 3]);
  // each answer is the broken board of a moved puzzle, mapped back: it holds the puzzle's clues
  r.boards.forEach((b, k) => {
    for (let i = 0; i < CELLS; i++) if (boards[k]![i]! > 0) assert.equal(b[i], boards[k]![i]);
    assert.ok(r.problems[k]!.length > 0);
  });
  assert.ok(source.complete);
});

test('a retry is keyed by its board, its attempt and the seed alone', () => {
  const a = retrySymmetry(3, 7, 2);
  assert.deepEqual(retrySymmetry(3, 7, 2), a);
  assert.notDeepEqual(retrySymmetry(3, 7, 3), a);
  assert.notDeepEqual(retrySymmetry(3, 8, 2), a);
  assert.notDeepEqual(retrySymmetry(4, 7, 2), a);
});
