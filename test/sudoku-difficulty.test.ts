// Sudoku difficulty classes and the qqwing layout: scores split by class on hand-made boards;
// qqwing's own columns (test/fixtures/sudoku, 320 rows) against the classes our logical solver
// computes; files written and read back; generated sets with puzzles that need guessing; bad
// columns; and `sjd data sudoku` (generate, convert --from .csv and .npy, one-line errors).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  type Board,
  classifyPuzzles,
  classOfLabel,
  countSolutions,
  DIFFICULTY_CLASSES,
  difficultyClasses,
  formatBoard,
  generatePuzzles,
  generateStrategySet,
  loadPairs,
  parseBoard,
  parseStrategyColumns,
  readStrategyCsv,
  STRATEGIES,
  scoreBoards,
  scoreByDifficulty,
  solveLogically,
  strategyStats,
  writeStrategyCsv,
} from '../src/tasks/sudoku/index.js';
import { tempDir } from './tmp.js';

const QQWING = fileURLToPath(
  new URL('../../test/fixtures/sudoku/qqwing_noguess_test_first320.csv', import.meta.url),
);
const qqText = readFileSync(QQWING, 'utf8');
const qq = readStrategyCsv(QQWING);
const dir = tempDir('sjd-sudoku-difficulty-');
const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const sjd = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
const blanks = (p: Board) => p.filter((v) => v === 0).length;

// Arto Inkala's published "hardest" puzzle (one solution): far beyond singles, pairs and
// intersections, so our logical solver gets stuck on it.
const INKALA = '800000000003600000070090200050007000000045700000100030001000068008500010090000400';

test('scoreByDifficulty: count, solve rate and cell accuracy per class on hand-made boards', () => {
  const [p, s] = [qq[0]!.puzzle, qq[0]!.solution];
  const wrong = s.slice();
  const i = p.indexOf(0);
  wrong[i] = (s[i]! % 9) + 1; // one blank answered wrongly
  const n = blanks(p); // 58
  const boards = [s, wrong, p, s];
  const classes = ['singles', 'singles', 'guessing', 'beyond-singles'] as const;
  const r = scoreByDifficulty([p, p, p, p], [s, s, s, s], boards, classes);
  assert.deepEqual(r, {
    singles: { boards: 2, solve_rate: 0.5, cell_accuracy: (2 * n - 1) / (2 * n) },
    'beyond-singles': { boards: 1, solve_rate: 1, cell_accuracy: 1 },
    guessing: { boards: 1, solve_rate: 0, cell_accuracy: 0 },
  });
  assert.deepEqual(Object.keys(r), [...DIFFICULTY_CLASSES]);
  // classes partition the boards: the counts and solved boards add up to the overall scores
  const all = scoreBoards([p, p, p, p], [s, s, s, s], boards);
  const parts = Object.values(r);
  assert.equal(
    parts.reduce((a, c) => a + c.boards, 0),
    all.boards,
  );
  assert.equal(
    parts.reduce((a, c) => a + c.boards * c.solve_rate, 0),
    all.boards * all.solve_rate,
  );
  // a class without puzzles is left out; misaligned arrays are refused
  assert.deepEqual(Object.keys(scoreByDifficulty([p], [s], [s], ['guessing'])), ['guessing']);
  assert.throws(() => scoreByDifficulty([p, p], [s, s], [s], ['singles', 'singles']), {
    message: 'scoreByDifficulty: 2 puzzles, 2 solutions, 1 boards, 2 classes',
  });
});

test("qqwing's columns and our logical solver agree on the class of all 320 fixture rows", () => {
  assert.equal(qq.length, 320);
  const tally: Record<string, number> = {};
  let sameCounts = 0;
  qq.forEach((row, k) => {
    const ours = strategyStats(row.puzzle);
    assert.equal(ours.label, row.label, `row ${k}`); // Simple / Easy / Intermediate
    assert.equal(classOfLabel(ours.label), classOfLabel(row.label), `row ${k}`);
    assert.equal(ours.givens, row.givens);
    // singles fill every blank in both solvers, though they split naked and hidden differently
    assert.equal(ours.counts.nakedSingle + ours.counts.hiddenSingle, blanks(row.puzzle));
    assert.equal(row.counts.nakedSingle + row.counts.hiddenSingle, blanks(row.puzzle));
    if (STRATEGIES.every((s) => ours.counts[s] === row.counts[s])) sameCounts++;
    const c = classOfLabel(row.label);
    tally[c] = (tally[c] ?? 0) + 1;
  });
  assert.deepEqual(tally, { singles: 225, 'beyond-singles': 95 });
  assert.ok(sameCounts > 0 && sameCounts < 320, `${sameCounts} rows with equal counts`); // 69
  // known rows: 0 Easy, 2 Simple (singles), 3 Intermediate (beyond singles)
  assert.deepEqual(
    [0, 2, 3].map((k) => [qq[k]!.label, classifyPuzzles([qq[k]!.puzzle])[0]]),
    [
      ['Easy', 'singles'],
      ['Simple', 'singles'],
      ['Intermediate', 'beyond-singles'],
    ],
  );
  const hard = parseBoard(INKALA);
  assert.equal(countSolutions(hard), 1);
  assert.deepEqual(strategyStats(hard).label, 'Expert');
  assert.deepEqual(classifyPuzzles([hard]), ['guessing']);
});

test('difficultyClasses: from the columns when the file has them, else from the solver', () => {
  const puzzles = qq.slice(0, 50).map((r) => r.puzzle);
  const fromColumns = difficultyClasses(QQWING, puzzles);
  assert.equal(fromColumns.source, 'columns');
  assert.deepEqual(
    fromColumns.classes,
    qq.slice(0, 50).map((r) => classOfLabel(r.label)),
  );
  const bare = join(dir, 'bare.csv'); // quizzes,solutions,givens only: not the qqwing columns
  writeFileSync(
    bare,
    qqText
      .split('\n')
      .slice(0, 51)
      .map((l) => l.split(',').slice(0, 3).join(','))
      .join('\n'),
  );
  assert.deepEqual(difficultyClasses(bare, puzzles), {
    classes: fromColumns.classes,
    source: 'solver',
  });
  assert.throws(() => difficultyClasses(bare.replace('bare', 'none'), puzzles), /ENOENT/);
});

test('generated sets: written and read back unchanged; --allow-guessing adds puzzles logic cannot finish', () => {
  const rows = generateStrategySet(60, { seed: 11, guessing: true });
  const path = join(dir, 'set.csv');
  writeStrategyCsv(path, rows);
  const text = readFileSync(path, 'utf8');
  // qqwing's header byte for byte, then the search-node count
  assert.equal(text.split('\n')[0], `${qqText.split('\n')[0]},search_nodes`);
  assert.deepEqual(readStrategyCsv(path), rows);
  const pairs = loadPairs(path); // what sjd eval sudoku --data reads
  assert.deepEqual(
    pairs.puzzles,
    rows.map((r) => r.puzzle),
  );
  assert.deepEqual(
    pairs.solutions,
    rows.map((r) => r.solution),
  );
  const classes = rows.map((r) => classOfLabel(r.label));
  assert.deepEqual(
    difficultyClasses(
      path,
      rows.map((r) => r.puzzle),
    ).classes,
    classes,
  );
  assert.deepEqual(classifyPuzzles(rows.map((r) => r.puzzle)), classes);
  const stuck = rows.filter((r) => !solveLogically(r.puzzle).solved);
  // minimal puzzles: 35 to 50% need guessing (84 of 200 for seed 3, 92 of 200 for seed 1)
  assert.ok(stuck.length >= 12 && stuck.length <= 40, `${stuck.length} of 60 need guessing`);
  assert.ok(stuck.every((r) => r.label === 'Expert'));
  for (const r of rows.slice(0, 20)) {
    assert.equal(countSolutions(r.puzzle), 1);
    assert.equal(r.givens, 81 - blanks(r.puzzle));
    // minimal: without any one clue the puzzle has a second solution
    for (let i = 0; i < 81; i++) {
      if (!r.puzzle[i]) continue;
      const q = r.puzzle.slice();
      q[i] = 0;
      assert.equal(countSolutions(q), 2);
    }
  }
  for (const k of ['singles', 'beyond-singles', 'guessing'])
    assert.ok(classes.includes(k as never));
  // without guessing: every puzzle logically solvable; same seed, same set
  const plain = generateStrategySet(30, { seed: 11 });
  assert.ok(plain.every((r) => r.label !== 'Expert' && solveLogically(r.puzzle).solved));
  assert.deepEqual(generateStrategySet(10, { seed: 11, guessing: true }), rows.slice(0, 10));
  const g = generatePuzzles(5, { seed: 11, guessing: true });
  assert.deepEqual(
    g.map((x) => formatBoard(x.puzzle)),
    rows.slice(0, 5).map((r) => formatBoard(r.puzzle)),
  );
});

test('bad qqwing columns: one-line errors naming the file, the line and the column', () => {
  const [header, row] = qqText.split('\n') as [string, string]; // row: givens 23, Easy
  const f = row.split(',');
  const edit = (k: number, v: string) => [header, f.map((x, j) => (j === k ? v : x)).join(',')];
  const cases: [string[], string][] = [
    [
      edit(9, 'Hard'),
      "qqwing_difficulty is 'Hard', expected one of Simple, Easy, Intermediate, Expert",
    ],
    [edit(9, 'Intermediate'), 'qqwing_difficulty is Intermediate but the strategy counts say Easy'],
    [edit(4, '0'), 'qqwing_difficulty is Easy but the strategy counts say Simple'],
    [edit(2, '24'), 'givens is 24 but the puzzle has 23 clues'],
    [edit(6, 'x'), "hidden_pairs is 'x', expected a count"],
    [[header, row, f.slice(0, 9).join(',')], "qqwing_difficulty is '', expected one of"],
  ];
  for (const [lines, message] of cases) {
    const line = lines.length;
    assert.throws(() => parseStrategyColumns(lines.join('\n'), 'in.csv'), {
      message: new RegExp(`^in\\.csv line ${line}: ${message.replace(/[.*+?()[\]]/g, '\\$&')}`),
    });
  }
  assert.equal(parseStrategyColumns(edit(9, 'expert').join('\n'), 'in.csv')![0]!.label, 'Expert');
  assert.equal(parseStrategyColumns('quizzes,solutions,givens\n', 'in.csv'), null);
});

/** A Shah et al. .npy file (uint8, records of g then 81 (row, column, value, strategy)). */
function npyOf(pairs: { puzzle: Board; solution: Board }[]): Uint8Array {
  const dict = `{'descr': '|u1', 'fortran_order': False, 'shape': (${pairs.length}, 325), }`;
  const head = `${dict}${' '.repeat(63 - ((10 + dict.length) % 64))}\n`;
  const body = pairs.flatMap(({ puzzle, solution }) => {
    const order = [...puzzle.keys()].sort((a, b) => Number(!puzzle[a]) - Number(!puzzle[b]));
    return [81 - blanks(puzzle), ...order.flatMap((i) => [(i / 9) | 0, i % 9, solution[i]!, 0])];
  });
  const out = new Uint8Array(10 + head.length + body.length);
  out.set([0x93, ...Buffer.from('NUMPY', 'latin1'), 1, 0, head.length & 255, head.length >> 8]);
  out.set(Buffer.from(head, 'latin1'), 10);
  out.set(body, 10 + head.length);
  return out;
}

test('sjd data sudoku: generate, convert --from .csv and .npy, refuse bad input in one line', () => {
  const out = join(dir, 'cli.csv');
  const r = sjd('data', 'sudoku', '--out', out, '--count', '40', '--seed', '4', '--allow-guessing');
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    /^wrote .*cli\.csv: 40 puzzles \(singles \d+, beyond-singles \d+, guessing \d+\), seed 4, /,
  );
  const rows = readStrategyCsv(out);
  assert.deepEqual(rows, generateStrategySet(40, { seed: 4, guessing: true }));
  const before = readFileSync(out, 'utf8');
  // puzzles alone (a CSV without solutions) and the .npy layout convert to the same file
  const quizzes = join(dir, 'quizzes.csv');
  writeFileSync(
    quizzes,
    `${before
      .split('\n')
      .map((l) => l.split(',')[0])
      .join('\n')}`,
  );
  const npy = join(dir, 'set.npy');
  writeFileSync(npy, npyOf(rows));
  for (const from of [quizzes, npy]) {
    const conv = join(dir, `from-${from.endsWith('.npy') ? 'npy' : 'csv'}.csv`);
    const c = sjd('data', 'sudoku', '--from', from, '--out', conv);
    assert.equal(c.status, 0, c.stderr);
    assert.equal(readFileSync(conv, 'utf8'), before, from);
  }
  const limited = join(dir, 'limited.csv');
  assert.equal(sjd('data', 'sudoku', '--from', npy, '--count', '7', '--out', limited).status, 0);
  assert.deepEqual(readStrategyCsv(limited), rows.slice(0, 7));
  // a puzzle with two solutions is refused
  const two = rows[0]!.puzzle.slice();
  two[two.findIndex((v) => v > 0)] = 0;
  const ambiguous = join(dir, 'ambiguous.csv');
  writeFileSync(ambiguous, `quizzes\n${formatBoard(rows[1]!.puzzle)}\n${formatBoard(two)}\n`);
  const blocked = join(dir, 'blocked');
  writeFileSync(blocked, 'a file, not a folder');
  const bad: [string[], RegExp, number][] = [
    [['--out', out, '--count', '3'], /exists; choose another --out or pass --force/, 1],
    [['--out', join(dir, 'n.csv'), '--count', '0'], /--count.*expected an integer in \[1, /, 2],
    [
      ['--out', join(blocked, 'x.csv'), '--count', '3'],
      /cannot write .*blocked is not a folder/,
      1,
    ],
    [['--out', join(dir, 'n.csv')], /give --count N .* or --from FILE/, 1],
    [['--out', join(dir, 'n.csv'), '--from', npy, '--seed', '1'], /go with generation/, 1],
    [
      ['--out', join(dir, 'n.csv'), '--from', join(dir, 'missing.csv')],
      /missing\.csv: no such file/,
      1,
    ],
    [
      ['--out', join(dir, 'n.csv'), '--from', ambiguous],
      /ambiguous\.csv puzzle 2: the puzzle has several solutions/,
      1,
    ],
  ];
  for (const [args, message, status] of bad) {
    const b = sjd('data', 'sudoku', ...args);
    assert.equal(b.status, status, `${args.join(' ')}: ${b.stderr}`);
    assert.equal(b.stdout, '');
    assert.match(b.stderr, /^sjd: [^\n]+\n$/);
    assert.match(b.stderr, message);
  }
  assert.equal(readFileSync(out, 'utf8'), before); // the refused run left the file alone
  const forced = sjd('data', 'sudoku', '--out', out, '--count', '3', '--force');
  assert.equal(forced.status, 0, forced.stderr);
  assert.equal(readStrategyCsv(out).length, 3);
});
