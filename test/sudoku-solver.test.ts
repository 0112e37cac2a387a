// Sudoku solvers and generator: the logical solver against real puzzles' stored solutions and
// qqwing's difficulty labels and strategy counts (test/fixtures/sudoku: the first rows of the
// qqwing no-guess test set), exact solution counting (unique, ambiguous, impossible puzzles) and
// its speed, and seeded generation (valid, unique, logically solvable, reproducible).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  countSolutions,
  formatBoard,
  generatePuzzles,
  gradeOf,
  isValidSolution,
  keepsClues,
  PEERS,
  parseBoard,
  readSudokuCsv,
  STRATEGIES,
  solveByBacktracking,
  solveLogically,
} from '../src/tasks/sudoku/index.js';

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/sudoku/', import.meta.url));
const QQ_PATH = join(FIXTURES, 'qqwing_noguess_test_first320.csv');
const qq = readSudokuCsv(QQ_PATH, { limit: 300 });
// qqwing's own columns for all 320 rows: quizzes, solutions, givens, singles, hidden_singles,
// naked_pairs, hidden_pairs, pointing_pairs_triples, box_line_intersections, qqwing_difficulty
const qqCols = readFileSync(QQ_PATH, 'utf8')
  .split('\n')
  .slice(1, 321)
  .map((line) => line.split(','));
const givensOf = (p: Uint8Array) => p.filter((v) => v > 0).length;

// 100 puzzles that need naked singles only, with their solutions: the qqwing rows whose strategy
// columns count no hidden single, pair or intersection (9 of the 320), then puzzles generated here
// with naked singles as the only allowed strategy (seed 100).
const singlesRows = qqCols.filter((c) => c.slice(4, 9).every((n) => n === '0'));
const generatedSingles = generatePuzzles(100 - singlesRows.length, {
  seed: 100,
  allowed: ['nakedSingle'],
});
const singles = {
  puzzles: [...singlesRows.map((c) => parseBoard(c[0]!)), ...generatedSingles.map((g) => g.puzzle)],
  solutions: [
    ...singlesRows.map((c) => parseBoard(c[1]!)),
    ...generatedSingles.map((g) => g.solution),
  ],
};

test('naked singles alone solve all 100 singles-only puzzles, matching the stored solutions', () => {
  assert.equal(singlesRows.length, 9);
  assert.ok(singlesRows.every((c) => c[9] === 'Simple')); // qqwing's label agrees with its counts
  assert.equal(singles.puzzles.length, 100);
  singles.puzzles.forEach((p, k) => {
    const r = solveLogically(p, ['nakedSingle']);
    assert.ok(r.solved, `puzzle ${k}`);
    assert.deepEqual(r.grid, singles.solutions[k]);
    assert.equal(r.counts.nakedSingle, 81 - givensOf(p));
    if (k < singlesRows.length) {
      assert.equal(givensOf(p), Number(singlesRows[k]![2]));
      assert.equal(r.counts.nakedSingle, Number(singlesRows[k]![3])); // qqwing's singles column
    }
    assert.equal(r.hardest, 'nakedSingle');
    assert.equal(gradeOf(r.hardest), 'simple');
  });
});

test('all strategies solve the first 300 qqwing puzzles; grades agree with qqwing labels', () => {
  const label = { Simple: 'simple', Easy: 'easy', Intermediate: 'intermediate' } as const;
  const tally: Record<string, number> = {};
  qq.puzzles.forEach((p, k) => {
    const cols = qqCols[k]!;
    const r = solveLogically(p);
    assert.ok(r.solved, `puzzle ${k}`);
    assert.deepEqual(r.grid, qq.solutions[k]);
    assert.equal(givensOf(p), Number(cols[2]));
    assert.equal(r.counts.nakedSingle + r.counts.hiddenSingle, 81 - givensOf(p));
    const qqLabel = cols[9] as keyof typeof label;
    tally[qqLabel] = (tally[qqLabel] ?? 0) + 1;
    // our strategy set equals qqwing's and singles come first in both, so the grades coincide
    assert.equal(gradeOf(r.hardest), label[qqLabel], `puzzle ${k} (${qqLabel})`);
    if (qqLabel === 'Simple') {
      assert.ok(solveLogically(p, ['nakedSingle']).solved);
      assert.equal(r.counts.hiddenSingle, 0);
    }
    if (qqLabel !== 'Intermediate') {
      assert.ok(solveLogically(p, ['nakedSingle', 'hiddenSingle']).solved);
      assert.equal(r.counts.nakedPair + r.counts.pointing + r.counts.boxLine, 0);
    } else {
      assert.ok(!solveLogically(p, ['nakedSingle', 'hiddenSingle']).solved);
    }
  });
  assert.deepEqual(tally, { Easy: 200, Intermediate: 91, Simple: 9 });
});

test('a partial logical solve never guesses: every placed digit is the solution digit', () => {
  let stuck = 0;
  qq.puzzles.forEach((p, k) => {
    const r = solveLogically(p, ['nakedSingle']);
    if (r.solved) return;
    stuck++;
    assert.ok(r.grid.includes(0));
    for (let i = 0; i < 81; i++) {
      const v = r.grid[i];
      assert.ok(v === 0 || v === qq.solutions[k]![i], `puzzle ${k} cell ${i}`);
    }
    assert.ok(keepsClues(p, r.grid));
  });
  assert.ok(stuck > 250); // most qqwing puzzles need more than naked singles
});

test('each pair / intersection strategy, added to singles, alone cracks some qqwing puzzles', () => {
  const singles = ['nakedSingle', 'hiddenSingle'] as const;
  const hard = qq.puzzles.filter((p) => !solveLogically(p, singles).solved);
  for (const s of STRATEGIES.slice(2)) {
    let cracked = 0;
    for (const p of hard) {
      const r = solveLogically(p, [...singles, s]);
      if (!r.solved) continue;
      cracked++;
      assert.deepEqual(r.grid, qq.solutions[qq.puzzles.indexOf(p)]);
      assert.ok(r.counts[s] > 0 && r.hardest === s);
    }
    assert.ok(cracked >= 20, `${s} cracked ${cracked} of ${hard.length}`); // 45-67 of 91
  }
});

test('the solver reports contradictions instead of a wrong grid', () => {
  const p = qq.puzzles[0]!.slice();
  const i = p.indexOf(0);
  p[i] = (qq.solutions[0]![i]! % 9) + 1; // a wrong clue, maybe with repeats
  const r = solveLogically(p);
  assert.equal(r.solved, false);
  assert.equal(solveLogically(qq.solutions[0]!).solved, true);
  assert.equal(solveLogically(qq.solutions[0]!).hardest, null);
  assert.equal(gradeOf(null), 'simple');
  assert.deepEqual(
    [gradeOf('hiddenSingle'), gradeOf('hiddenPair'), gradeOf('boxLine')],
    ['easy', 'intermediate', 'intermediate'],
  );
});

test('countSolutions: 1 for the data sets, 2 once a clue is removed, 0 without a solution', () => {
  for (const p of [...singles.puzzles.slice(0, 50), ...qq.puzzles.slice(0, 50)])
    assert.equal(countSolutions(p), 1);
  // qqwing puzzles are minimal-ish: some clue's removal must open a second solution
  const p = qq.puzzles[0]!;
  const i = [...p.keys()].find((j) => {
    if (!p[j]) return false;
    const q = p.slice();
    q[j] = 0;
    return countSolutions(q) === 2;
  });
  assert.ok(i !== undefined);
  const q = p.slice();
  q[i] = 0;
  assert.equal(countSolutions(q, 2), 2);
  assert.equal(countSolutions(q, 1), 1);
  assert.equal(solveLogically(q).solved, false); // logic alone cannot pick between two grids
  assert.equal(countSolutions(new Uint8Array(81), 5), 5);
  // a clue consistent with its peers but not with the unique solution
  const sol = qq.solutions[0]!;
  const j = p.indexOf(0);
  const wrong = [1, 2, 3, 4, 5, 6, 7, 8, 9].find(
    (d) => d !== sol[j] && [...PEERS[j]!].every((n) => p[n] !== d),
  )!;
  const none = p.slice();
  none[j] = wrong;
  assert.equal(countSolutions(none), 0);
  assert.equal(solveByBacktracking(none), null);
});

test('solveByBacktracking finds the stored solutions; countSolutions runs thousands per second', () => {
  for (let k = 0; k < 100; k++)
    assert.deepEqual(solveByBacktracking(qq.puzzles[k]!), qq.solutions[k]);
  const full = solveByBacktracking(new Uint8Array(81))!;
  assert.ok(isValidSolution(full));
  const t0 = performance.now();
  for (let k = 0; k < 1000; k++) countSolutions(singles.puzzles[k % singles.puzzles.length]!);
  const ms = performance.now() - t0;
  assert.ok(ms < 1000, `1000 countSolutions took ${ms.toFixed(0)} ms`); // ~25 ms unloaded
});

test('generatePuzzles: valid, unique, logically solvable, clues kept, givens like qqwing', () => {
  const t0 = performance.now();
  const gen = generatePuzzles(100, { seed: 2024 });
  const ms = performance.now() - t0;
  assert.ok(ms < 5000, `100 puzzles took ${ms.toFixed(0)} ms`); // ~0.2 s unloaded
  const grades: Record<string, number> = {};
  for (const g of gen) {
    assert.ok(isValidSolution(g.solution));
    assert.ok(keepsClues(g.puzzle, g.solution));
    assert.equal(g.givens, givensOf(g.puzzle));
    assert.ok(g.givens >= 20 && g.givens <= 32, `${g.givens} givens`);
    assert.equal(countSolutions(g.puzzle), 1);
    const r = solveLogically(g.puzzle);
    assert.ok(r.solved);
    assert.deepEqual(r.grid, g.solution);
    assert.deepEqual(r.counts, g.counts);
    assert.equal(gradeOf(r.hardest), g.grade);
    grades[g.grade] = (grades[g.grade] ?? 0) + 1;
  }
  const mean = gen.reduce((s, g) => s + g.givens, 0) / gen.length;
  assert.ok(mean > 22 && mean < 28, `mean givens ${mean}`); // qqwing: 24-26 for 78%
  assert.ok((grades.easy ?? 0) > 0 && (grades.intermediate ?? 0) > 0, JSON.stringify(grades));
  assert.equal(new Set(gen.map((g) => formatBoard(g.puzzle))).size, 100);
  // same seed: same puzzles (also as a prefix); another seed: different ones
  const again = generatePuzzles(10, { seed: 2024 });
  assert.deepEqual(again, gen.slice(0, 10));
  const other = generatePuzzles(10, { seed: 2025 });
  assert.ok(other.every((g, k) => formatBoard(g.puzzle) !== formatBoard(gen[k]!.puzzle)));
});

test('generatePuzzles with naked singles only gives simple puzzles; minGivens stops early', () => {
  const simple = generatePuzzles(30, { seed: 7, allowed: ['nakedSingle'] });
  for (const g of simple) {
    assert.equal(g.grade, 'simple');
    assert.ok(solveLogically(g.puzzle, ['nakedSingle']).solved);
    assert.equal(countSolutions(g.puzzle), 1);
    for (const s of STRATEGIES.slice(1)) assert.equal(g.counts[s], 0);
  }
  const easy = generatePuzzles(20, { seed: 7, allowed: ['nakedSingle', 'hiddenSingle'] });
  assert.ok(easy.every((g) => g.grade !== 'intermediate'));
  const mean = (gs: { givens: number }[]) => gs.reduce((s, g) => s + g.givens, 0) / gs.length;
  assert.ok(mean(simple) > mean(easy)); // weaker strategies need more clues
  const capped = generatePuzzles(10, { seed: 7, minGivens: 40 });
  assert.ok(capped.every((g) => g.givens === 40 && countSolutions(g.puzzle) === 1));
});
