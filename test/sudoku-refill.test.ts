// Sudoku's boards in a refilled batch (src/tasks/sudoku/solve.ts, retry.ts) with the shipped model
// at the defaults: a board solved alone (its own part of the set, so its key is the same) and in a
// refilled batch of 3 with the others gives the same digits, NFE and attempts, and so does the
// batch that waits for its slowest board, which takes more passes. The puzzles need guessing (1+
// search nodes), so some boards search long; the network's own arithmetic differs with the rows
// beside it in the last bits (about 1e-5 in a logit), which a decision at a near tie could follow:
// the exact oracle's check (sampler-refill.test.ts) has no such slack.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { solveChunk } from '../src/lab/sudoku/solve-in-turns.js';
import {
  defaultSudokuNfe,
  generateByNodes,
  loadSudokuModel,
  parseBoard,
  solveSudoku,
  startOrder,
  sudokuSampling,
} from '../src/tasks/sudoku/index.js';
import { EASY, EASY_SOLUTION, HARD } from './sudoku-puzzles.js';

test('a board gives the same digits, NFE and attempts alone and in a refilled batch (shipped model, defaults)', () => {
  const { model, process: proc } = loadSudokuModel();
  const puzzles = generateByNodes(8, { minNodes: 1, seed: 5 }).map((g) => g.puzzle);
  const { sampler, rules } = sudokuSampling({});
  const o = { sampler, rules, nfe: defaultSudokuNfe(sampler), seed: 0, batch: 3 };
  let steps = 0;
  const refilled = solveSudoku(model, proc, puzzles, { ...o, onStep: (k) => (steps = k) });
  let waitingSteps = 0;
  const waiting = solveSudoku(model, proc, puzzles, {
    ...o,
    refill: false,
    onStep: (k) => (waitingSteps = k),
  });
  puzzles.forEach((p, k) => {
    const alone = solveChunk(model, proc, { start: k, puzzles: [p] }, { ...o, batch: 1 });
    for (const r of [refilled, waiting]) {
      assert.deepEqual(r.boards[k], alone.boards[0], `board ${k}`);
      assert.equal(r.nfe[k], alone.nfe[0], `board ${k} NFE`);
      assert.equal(r.attempts[k], alone.attempts[0], `board ${k} attempts`);
    }
  });
  assert.equal(refilled.solved, 8);
  // one board searches long (tens of NFE), so the waiting batch pays for it more often
  assert.ok(Math.max(...refilled.nfe) > 3 * Math.min(...refilled.nfe), `${refilled.nfe}`);
  assert.ok(steps < waitingSteps, `${steps} vs ${waitingSteps} steps`);
});

test('a solve starts its boards hardest first: what the logical solver cannot place, then its hardest strategy; ties in order', () => {
  const easy = parseBoard(EASY);
  const hard = parseBoard(HARD); // needs guessing: the solver leaves cells
  const solved = parseBoard(EASY_SOLUTION); // nothing to do
  assert.deepEqual(startOrder([easy, hard, solved, easy]), [1, 0, 3, 2]);
  assert.deepEqual(startOrder([]), []);
});
