// Hard constraints at sampling (src/sampling/exclusion.ts, src/tasks/sudoku/rules.ts):
// Sudoku's rules rule out, at every cell, exactly the digits its committed peers hold; the
// classifier's logits there drop to -1e9 and a cell with every digit ruled out keeps its
// logits. End to end, a classifier that knows nothing (uniform logits) solves a puzzle whose
// blanks are naked singles once the rules are on (each blank has one digit left, probability
// 1 >= the commit threshold) and fails it without them (its argmax is one digit everywhere).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as P from '../src/process/index.js';
import { classify, type SamplerState, sample } from '../src/sampling/index.js';
import { PEERS, parseBoard } from '../src/tasks/sudoku/puzzle/board.js';
import { sudokuRules } from '../src/tasks/sudoku/rules.js';
import * as torch from '../src/torch/index.js';
import { SETTINGS } from './settings.js';

const SOLUTION =
  '534678912672195348198342567859761423426853791713924856961537284287419635345286179';

test('sudoku rules: a committed digit is ruled out at its 20 peers and nowhere else; uncommitted tokens rule nothing out', () => {
  const tokens = torch.zeros([2, 81], 'int64').add(3); // digit 4 everywhere
  // board 0: the centre cell holds 4 (token 3); board 1: nothing committed
  const committed = torch.tensor(
    Array.from({ length: 162 }, (_, k) => (k === 40 ? 1 : 0)),
    [2, 81],
    'bool',
  );
  const ruled = sudokuRules(tokens, committed).toArray(); // [2, 81, 9]
  const peers = new Set(PEERS[40]);
  for (let i = 0; i < 81; i++)
    for (let k = 0; k < 9; k++) {
      assert.equal(
        ruled[i * 9 + k],
        peers.has(i) && k === 3 ? 1 : 0,
        `board 0 cell ${i} digit ${k + 1}`,
      );
      assert.equal(ruled[81 * 9 + i * 9 + k], 0, `board 1 cell ${i} digit ${k + 1}`);
    }
});

test('classify: ruled-out values get logit -1e9; a site with every value ruled out keeps its logits', () => {
  const logits = torch.tensor([0.5, 1, 2, 3, 4, 5], [1, 2, 3]);
  const state: SamplerState = {
    y: torch.zeros([1, 2, 2], 'float64'),
    committed: torch.zeros([1, 2], 'bool'),
    tokens: torch.zeros([1, 2], 'int64'),
  };
  const ctx = {
    process: P.makeProcess('hybrid', { length: 2 }),
    classifier: () => logits,
    anchors: torch.eye(3, 'float64'),
    temperature: 1,
    topP: 1,
    exclude: () => torch.tensor([1, 0, 1, 1, 1, 1], [1, 2, 3], 'bool'),
  };
  assert.deepEqual(classify(ctx, state, 0.5).toArray(), [-1e9, 1, -1e9, 3, 4, 5]);
  assert.deepEqual(
    classify({ ...ctx, exclude: undefined }, state, 0.5).toArray(),
    [0.5, 1, 2, 3, 4, 5],
  );
});

test('adaptive sampler: with the rules a know-nothing classifier fills naked singles exactly in one step; without them it fails', () => {
  const solution = parseBoard(SOLUTION);
  const blanks = [0, 40, 80, 33]; // each blank's 20 peers are all clues: a naked single
  const puzzle = solution.map((v, i) => (blanks.includes(i) ? 0 : v));
  const proc = P.makeProcess('hybrid', { length: 81 });
  const uniform = (y: torch.Tensor) => torch.zeros([y.size(0), 81, 9]); // [B, 81, 9]
  const run = (rules: boolean) =>
    sample({
      ...SETTINGS,
      process: proc,
      classifier: uniform,
      anchors: torch.eye(9, 'float64'),
      batch: 1,
      length: 81,
      nfe: 16,
      seed: 0,
      sampler: 'adaptive' as const,
      condition: {
        tokens: torch.tensor(
          Array.from(puzzle, (v) => Math.max(v - 1, 0)),
          [1, 81],
          'int64',
        ),
        mask: torch.tensor(
          Array.from(puzzle, (v) => (v > 0 ? 1 : 0)),
          [1, 81],
          'bool',
        ),
      },
      exclude: rules ? sudokuRules : undefined,
    });
  const withRules = run(true);
  assert.deepEqual(
    withRules.tokens.toArray().map((t) => t + 1),
    Array.from(solution),
  );
  assert.equal(withRules.rowNfe[0], 1, 'all four singles commit in the first step');
  const without = run(false).tokens.toArray();
  const guessed = blanks.map((i) => without[i]! + 1);
  assert.equal(new Set(guessed).size, 1, 'uniform logits: the same argmax at every blank');
  assert.notDeepEqual(
    guessed,
    blanks.map((i) => solution[i]),
    'and so not the solution',
  );
});

/**
 * Two boards as tokens [2, 81] int64 (digit - 1) and committed [2, 81] bool: `cells` (cell ->
 * digit) committed, and the same without the cell `without`.
 */
function boardPair(cells: Map<number, number>, without: number) {
  const boards = [cells, new Map([...cells].filter(([i]) => i !== without))];
  const tokens = torch.tensor(
    boards.flatMap((b) => Array.from({ length: 81 }, (_, i) => (b.get(i) ?? 1) - 1)),
    [2, 81],
    'int64',
  );
  const committed = torch.tensor(
    boards.flatMap((b) => Array.from({ length: 81 }, (_, i) => (b.has(i) ? 1 : 0))),
    [2, 81],
    'bool',
  );
  return { tokens, committed };
}

test('sudoku rules: stuck when a unit has a digit none of its cells can take, though every cell has a digit left', () => {
  // row 1: columns 1-7 hold 3..9; columns 8 and 9 are open; a 1 committed at row 4 column 8 and
  // at row 7 column 9 rules 1 out at both, so row 1 cannot hold a 1, while each open
  // cell still has 2 left. Without the 1 at row 7 column 9, row 1 column 9 may take it.
  const cells = new Map<number, number>([
    [0, 3],
    [1, 4],
    [2, 5],
    [3, 6],
    [4, 7],
    [5, 8],
    [6, 9],
    [3 * 9 + 7, 1],
    [6 * 9 + 8, 1],
  ]);
  const { tokens, committed } = boardPair(cells, 6 * 9 + 8);
  const left = sudokuRules(tokens, committed).logicalNot(); // [2, 81, 9]
  const dead = left.any(-1).logicalNot().logicalAnd(committed.logicalNot()).any(-1).toArray();
  assert.deepEqual(dead, [0, 0], 'no open cell has run out of digits');
  const open = left.toArray();
  assert.deepEqual(
    [0, 1].map((k) => open[(0 * 81 + 8) * 9 + k]),
    [0, 1],
    'board 0, row 1 column 9: 2 only',
  );
  assert.deepEqual(sudokuRules.stuck!(left, tokens, committed).toArray(), [1, 0]);
  // a valid full solution is never stuck
  const full = torch.tensor(
    Array.from(parseBoard(SOLUTION), (d) => d - 1),
    [1, 81],
    'int64',
  );
  const all = torch.ones([1, 81], 'bool');
  assert.deepEqual(
    sudokuRules.stuck!(sudokuRules(full, all).logicalNot(), full, all).toArray(),
    [0],
  );
});

test('sudoku rules: at a hidden single (the one cell of a unit still allowed a digit it lacks) every other digit is ruled out', () => {
  // row 1 holds 5..9 at columns 2, 3, 5, 6 and 8; a 1 at row 2 column 1, row 3 column 4 and row
  // 4 column 7 rules 1 out at its open cells in columns 1, 4 and 7, so the 1 of row 1 can only go
  // at column 9, a hidden single: every digit but 1 is ruled out there. Without the 1 at row 4
  // column 7, column 7 may take the 1 too and nothing is forced.
  const cells = new Map<number, number>([
    [9 + 0, 1],
    [18 + 3, 1],
    [27 + 6, 1],
    [1, 5],
    [2, 6],
    [4, 7],
    [5, 8],
    [7, 9],
  ]);
  const { tokens, committed } = boardPair(cells, 27 + 6);
  const ruled = sudokuRules(tokens, committed).toArray(); // [2, 81, 9]
  const at = (b: number, cell: number) =>
    Array.from({ length: 9 }, (_, k) => ruled[(b * 81 + cell) * 9 + k]);
  assert.deepEqual(at(0, 8), [0, 1, 1, 1, 1, 1, 1, 1, 1], 'board 0, row 1 column 9: 1 alone');
  assert.deepEqual(at(1, 8), [0, 0, 0, 0, 1, 1, 1, 1, 1], 'board 1: 5..9 by its row only');
  assert.deepEqual(at(1, 6), [0, 0, 0, 0, 1, 1, 1, 1, 1], 'board 1, row 1 column 7 may take 1');
});
