// The Sudoku grid model: cell geometry and peers, 81-character string I/O and its errors, the
// validity checks, and the CLI's text rendering, on the SJD paper's example puzzle.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  boxOf,
  colOf,
  findRepeat,
  formatBoard,
  hasContradiction,
  isValidSolution,
  keepsClues,
  PEERS,
  parseBoard,
  renderBoard,
  rowOf,
  solutionProblem,
  UNITS,
} from '../src/tasks/sudoku/index.js';

// The paper's example puzzle (quoted in part in sec:exp-sudoku; a single puzzle and its solution).
const PUZZLE = '080050060460907108005000029970006500000872031300049000004025003010000480603100007';
const SOLUTION =
  '789251364462937158135468729978316542546872931321549876894725613217693485653184297';

test('rowOf / colOf / boxOf follow the row-major layout', () => {
  assert.deepEqual([rowOf(0), colOf(0), boxOf(0)], [0, 0, 0]);
  assert.deepEqual([rowOf(40), colOf(40), boxOf(40)], [4, 4, 4]);
  assert.deepEqual([rowOf(80), colOf(80), boxOf(80)], [8, 8, 8]);
  assert.deepEqual([rowOf(23), colOf(23), boxOf(23)], [2, 5, 1]); // r3 c6 -> top-middle box
  assert.deepEqual([rowOf(57), colOf(57), boxOf(57)], [6, 3, 7]);
  for (let i = 0; i < 81; i++) assert.equal(9 * rowOf(i) + colOf(i), i);
});

test('PEERS: 20 distinct cells sharing a row, column or box, never the cell itself, symmetric', () => {
  for (let i = 0; i < 81; i++) {
    const peers = [...PEERS[i]!];
    assert.equal(new Set(peers).size, 20);
    assert.ok(!peers.includes(i));
    for (const p of peers) {
      assert.ok(rowOf(p) === rowOf(i) || colOf(p) === colOf(i) || boxOf(p) === boxOf(i));
      assert.ok(PEERS[p]!.includes(i));
    }
  }
  assert.deepEqual(
    [...PEERS[0]!],
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 18, 19, 20, 27, 36, 45, 54, 63, 72],
  );
  // 27 units of 9 cells, each cell in exactly 3
  assert.equal(UNITS.length, 27);
  const seen = new Uint8Array(81);
  for (const u of UNITS) for (const i of u) seen[i]!++;
  assert.ok(seen.every((n) => n === 3));
});

test('parseBoard / formatBoard round-trip; "." and "0" are blanks', () => {
  const b = parseBoard(PUZZLE);
  assert.equal(b.length, 81);
  assert.equal(b[1], 8);
  assert.equal(b[0], 0);
  assert.equal(formatBoard(b), PUZZLE);
  assert.deepEqual(parseBoard(PUZZLE.replaceAll('0', '.')), b);
  assert.equal(formatBoard(b, '.'), PUZZLE.replaceAll('0', '.'));
});

test('parseBoard errors are one line naming the problem', () => {
  assert.throws(() => parseBoard(PUZZLE.slice(1), 'puzzle'), {
    message: 'puzzle has 80 characters, expected 81',
  });
  assert.throws(() => parseBoard(`${PUZZLE}5`), {
    message: 'board has 82 characters, expected 81',
  });
  const bad = `${PUZZLE.slice(0, 11)}x${PUZZLE.slice(12)}`;
  assert.throws(() => parseBoard(bad, 'puzzle'), {
    message: "puzzle has character 'x' at position 12",
  });
  const tab = `\t${PUZZLE.slice(1)}`;
  assert.throws(() => parseBoard(tab, 'solution'), {
    message: 'solution has character U+0009 at position 1',
  });
});

test('isValidSolution, solutionProblem and findRepeat on a real solution and broken copies', () => {
  const sol = parseBoard(SOLUTION);
  assert.ok(isValidSolution(sol));
  assert.equal(solutionProblem(sol), null);
  assert.equal(findRepeat(sol), null);
  // swapping two cells of a row keeps the row valid but breaks their columns
  const swapped = sol.slice();
  [swapped[0], swapped[1]] = [swapped[1]!, swapped[0]!];
  assert.ok(!isValidSolution(swapped));
  assert.equal(solutionProblem(swapped), 'column 1 repeats 8');
  const blank = sol.slice();
  blank[13] = 0;
  assert.equal(solutionProblem(blank), 'row 2 column 5 is blank');
  const row = sol.slice();
  row[30] = row[31]!; // row 4 repeats the digit of row 4 column 5
  assert.equal(solutionProblem(row), `row 4 repeats ${sol[31]}`);
});

test('hasContradiction finds a digit twice in a row, column or box', () => {
  const p = parseBoard(PUZZLE);
  assert.ok(!hasContradiction(p));
  const inRow = p.slice();
  inRow[0] = 8; // row 1 already has an 8 at column 2
  assert.deepEqual(findRepeat(inRow), { unit: 0, digit: 8 });
  const inCol = p.slice();
  inCol[72 + 1] = 8; // column 2 (row 9 had 0)
  assert.ok(hasContradiction(inCol));
  const inBox = parseBoard('1'.padEnd(10, '0') + '1'.padEnd(71, '0'));
  assert.deepEqual(findRepeat(inBox), { unit: 18, digit: 1 }); // box 1 only
  assert.ok(!hasContradiction(new Uint8Array(81)));
});

test('keepsClues: a solution must agree with every clue', () => {
  const p = parseBoard(PUZZLE);
  const s = parseBoard(SOLUTION);
  assert.ok(keepsClues(p, s));
  const other = s.slice();
  other[1] = 9;
  assert.ok(!keepsClues(p, other));
  other[1] = 8;
  other[0] = 1; // a blank cell of the puzzle may hold anything
  assert.ok(keepsClues(p, other));
});

test('renderBoard draws the paper example with box separators', () => {
  const expected = [
    ' . 8 . | . 5 . | . 6 .',
    ' 4 6 . | 9 . 7 | 1 . 8',
    ' . . 5 | . . . | . 2 9',
    '-------+-------+-------',
    ' 9 7 . | . . 6 | 5 . .',
    ' . . . | 8 7 2 | . 3 1',
    ' 3 . . | . 4 9 | . . .',
    '-------+-------+-------',
    ' . . 4 | . 2 5 | . . 3',
    ' . 1 . | . . . | 4 8 .',
    ' 6 . 3 | 1 . . | . . 7',
  ].join('\n');
  assert.equal(renderBoard(parseBoard(PUZZLE)), expected);
  const withClues = renderBoard(parseBoard(SOLUTION), { clues: parseBoard(PUZZLE) }).split('\n');
  assert.equal(withClues[0], ' 7 [8] 9 | 2 [5] 1 | 3 [6] 4');
  assert.equal(withClues[3], '---------+---------+---------');
  assert.equal(withClues.length, 11);
});
