// Checking a solver's answer (src/tasks/sudoku/check.ts): every changed clue, blank and repeated
// digit is named; how many solutions the puzzle has (one, several, none, or unknown past the
// node bound); the bounded backtracking count; the status column of written CSV files and the
// atomic writer (a folder as the target fails and leaves nothing behind).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { scoreBoards } from '../src/tasks/sudoku/metrics.js';
import { countSolutions, countSolutionsBounded } from '../src/tasks/sudoku/puzzle/backtrack.js';
import { parseBoard, unitIsPermutation, unitRepeats } from '../src/tasks/sudoku/puzzle/board.js';
import {
  answerProblems,
  answerVerdict,
  failureReason,
  pairProblem,
  solutionCount,
} from '../src/tasks/sudoku/puzzle/check.js';
import { formatSudokuCsv, parseSudokuCsv, writeSudokuCsv } from '../src/tasks/sudoku/puzzle/csv.js';

const PUZZLE = parseBoard(
  '530070000600195000098000060800060003400803001700020006060000280000419005000080079',
);
const SOLUTION = parseBoard(
  '534678912672195348198342567859761423426853791713924856961537284287419635345286179',
);
/** 17 clues, one solution (found by logic alone). */
const SEVENTEEN = parseBoard(
  '000000010400000000020000000000050407008000300001090000300400200050100000000806000',
);
/** Beyond the logical solver's strategies, one solution (backtracking decides). */
const HARD = parseBoard(
  '800000000003600000070090200050007000000045700000100030001000068008500010090000400',
);
/** Two clues: many solutions, and logic alone places nothing. */
const TWO_CLUES = parseBoard(`${'0'.repeat(79)}12`);
/** Row 1 holds 1..8 and column 9 a 9: the cell at row 1 column 9 has no digit left. */
const NONE = parseBoard(`123456780${'0'.repeat(8)}9${'0'.repeat(63)}`);

const edited = (b: Uint8Array, cells: Record<number, number>) => {
  const c = b.slice();
  for (const [i, v] of Object.entries(cells)) c[Number(i)] = v;
  return c;
};

const dir = mkdtempSync(join(tmpdir(), 'sjd-sudoku-check-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('answerProblems: nothing for a solution; every changed clue, blank cell and repeated digit otherwise', () => {
  assert.deepEqual(answerProblems(PUZZLE, SOLUTION), []);
  assert.equal(answerVerdict(PUZZLE, SOLUTION), null);
  const blankCell = edited(SOLUTION, { 78: 0 });
  assert.deepEqual(answerProblems(PUZZLE, blankCell), ['row 9 column 7 is blank']);
  // Cell 2 (row 1 column 3, a blank of the puzzle) 4 -> 3: row 1, column 3 and box 1 repeat 3.
  assert.deepEqual(answerProblems(PUZZLE, edited(SOLUTION, { 2: 3 })), [
    'row 1 repeats 3',
    'column 3 repeats 3',
    'box 1 repeats 3',
  ]);
  // Cell 0 is the clue 5: changing it is named first.
  assert.deepEqual(answerProblems(PUZZLE, edited(SOLUTION, { 0: 3 })), [
    'row 1 column 1 changes the clue 5 to 3',
    'row 1 repeats 3',
    'column 1 repeats 3',
    'box 1 repeats 3',
  ]);
  // Two digits repeated in one row: cells 2 and 3 (4, 6) become (3, 7).
  const two = edited(SOLUTION, { 2: 3, 3: 7 });
  assert.deepEqual(unitRepeats(two, 0), [3, 7]);
  assert.ok(!unitIsPermutation(two, 0) && unitIsPermutation(two, 1));
  assert.equal(answerProblems(PUZZLE, two)[0], 'row 1 repeats 3 and 7');
});

test('solutionCount: one (logic), one (backtracking), several, none, and unknown past the node bound', () => {
  assert.equal(solutionCount(SEVENTEEN), 'one');
  assert.equal(solutionCount(PUZZLE), 'one');
  assert.equal(solutionCount(HARD), 'one');
  assert.equal(solutionCount(TWO_CLUES), 'several');
  assert.equal(solutionCount(NONE), 'none');
  // Backtracking needs at least one node per blank cell to reach a solution.
  assert.equal(solutionCount(TWO_CLUES, 10), 'unknown');
  assert.equal(solutionCount(TWO_CLUES, 79), 'unknown');
  assert.equal(solutionCount(HARD, 20), 'unknown');
  assert.equal(
    solutionCount(NONE, 1),
    'none',
    'a cell without candidates is seen at the first node',
  );
  const broken = edited(SOLUTION, { 2: 3 });
  assert.equal(
    failureReason(PUZZLE, answerProblems(PUZZLE, broken)),
    'row 1 repeats 3; column 3 repeats 3; box 1 repeats 3; the puzzle has one solution',
  );
  assert.equal(
    failureReason(TWO_CLUES, ['row 1 repeats 3']),
    'row 1 repeats 3; the puzzle has several solutions',
  );
  assert.match(answerVerdict(NONE, broken)!, /; the puzzle has no solution$/);
  for (const p of [PUZZLE, TWO_CLUES, NONE])
    assert.doesNotMatch(answerVerdict(p, broken)!, /,/, 'a verdict is one CSV field');
});

test('countSolutionsBounded: the exact count within the bound, complete = false when the bound stops it', () => {
  for (const p of [PUZZLE, SEVENTEEN, HARD, TWO_CLUES, NONE])
    assert.deepEqual(countSolutionsBounded(p, 2, 1e7), {
      count: countSolutions(p, 2),
      complete: true,
    });
  const empty = new Uint8Array(81);
  assert.deepEqual(countSolutionsBounded(empty, 2, 50), { count: 0, complete: false });
  // 81 nodes reach the first solution, a few more the second: the limit settles it.
  assert.deepEqual(countSolutionsBounded(empty, 2, 1000), { count: 2, complete: true });
  const many = countSolutionsBounded(empty, 1e9, 5000);
  assert.ok(!many.complete && many.count > 2 && many.count < 5000, `${many.count}`);
  // A data reader keeps a puzzle whose solvability the bound leaves open, refuses a proven none.
  assert.equal(pairProblem(NONE, null), 'puzzle has no solution');
  assert.equal(pairProblem(SEVENTEEN, null), null);
});

test('scoreBoards counts a board solved only when it equals the solution and breaks no rule', () => {
  const s = scoreBoards(
    [PUZZLE, PUZZLE, PUZZLE],
    [SOLUTION, SOLUTION, SOLUTION],
    [SOLUTION, edited(SOLUTION, { 2: 3 }), edited(SOLUTION, { 78: 0 })],
  );
  assert.equal(s.solve_rate, 1 / 3);
  assert.equal(s.row_validity, (9 + 8 + 8) / 27);
  assert.equal(s.column_validity, (9 + 8 + 8) / 27);
  assert.equal(s.box_validity, (9 + 8 + 8) / 27);
});

test('CSV with a status column: header, third field, read back ignoring it; commas refused', () => {
  const rows = [
    { puzzle: PUZZLE, solution: SOLUTION, status: 'solved' },
    { puzzle: SEVENTEEN, solution: null, status: 'row 1 repeats 3; the puzzle has one solution' },
  ];
  const text = formatSudokuCsv(rows);
  const lines = text.split('\n');
  assert.equal(lines[0], 'quizzes,solutions,status');
  assert.equal(lines[1]!.split(',')[2], 'solved');
  assert.equal(lines[2]!.split(',')[1], '');
  assert.equal(lines[2]!.split(',')[2], 'row 1 repeats 3; the puzzle has one solution');
  const back = parseSudokuCsv(text, 'x.csv');
  assert.deepEqual(back.puzzles, [PUZZLE, SEVENTEEN]);
  assert.deepEqual(back.solutions, [SOLUTION, null]);
  assert.equal(
    formatSudokuCsv([{ puzzle: PUZZLE, solution: SOLUTION }]).split('\n')[0],
    'quizzes,solutions',
  );
  assert.throws(
    () => formatSudokuCsv([{ puzzle: PUZZLE, solution: SOLUTION, status: 'a, b' }]),
    /a CSV status may not hold commas/,
  );
});

test('writeSudokuCsv: atomic, creates missing folders; a folder as the target fails and leaves nothing', () => {
  const rows = [{ puzzle: PUZZLE, solution: SOLUTION, status: 'solved' }];
  const nested = join(dir, 'a', 'b', 'out.csv');
  writeSudokuCsv(nested, rows);
  assert.equal(readFileSync(nested, 'utf8'), formatSudokuCsv(rows));
  assert.deepEqual(readdirSync(join(dir, 'a', 'b')), ['out.csv']);
  const folder = join(dir, 'folder');
  mkdirSync(folder);
  assert.throws(
    () => writeSudokuCsv(folder, rows),
    /^Error: cannot write .*folder: it is a folder$/,
  );
  assert.deepEqual(readdirSync(folder), []);
  assert.deepEqual(readdirSync(dir).sort(), ['a', 'folder']);
});
