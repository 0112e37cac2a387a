// Sudoku data files: the CSV reader on real data (the first rows of the qqwing no-guess test set,
// LF with qqwing's strategy columns, test/fixtures/README.md, and the same rows written here with
// CRLF line endings), the paper's example as it quotes it (first and last rows), every bad-input
// message with its line number, atomic writing; the .npy reader (Shah et al. layout) on files
// written by hand here and by NumPy, several dtypes and versions, and its one-line errors.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  formatBoard,
  formatSudokuCsv,
  hasContradiction,
  parseBoard,
  parseSudokuCsv,
  parseSudokuNpy,
  readSudokuCsv,
  readSudokuNpy,
  solveByBacktracking,
  writeSudokuCsv,
} from '../src/tasks/sudoku/index.js';
import { tempDir } from './tmp.js';

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/sudoku/', import.meta.url));
const QQWING = join(FIXTURES, 'qqwing_noguess_test_first320.csv');
// the first qqwing pair (23 givens)
const PUZZLE = '780000000500009100000010700802500003010300980070000000620800000003000005000006009';
const SOLUTION =
  '781253496564789132239614758892571643415362987376948521627895314943127865158436279';
const GOOD = `${PUZZLE},${SOLUTION}`;
const dir = tempDir('sjd-sudoku-');

const csv = (...rows: string[]) => ['quizzes,solutions', ...rows].join('\n');
const at = (s: string, i: number, ch: string) => s.slice(0, i) + ch + s.slice(i + 1);

test('CRLF files: the first 100 qqwing pairs as quizzes,solutions, and all 320 rows with columns', () => {
  const lines = readFileSync(QQWING, 'utf8').split('\n'); // header, 320 rows, '' after the last LF
  assert.equal(lines.length, 322);
  const pairs = [
    'quizzes,solutions',
    ...lines.slice(1, 101).map((l) => l.split(',').slice(0, 2).join(',')),
  ];
  const crlfDir = tempDir('sjd-sudoku-crlf-'); // removed when this test ends
  const crlf = join(crlfDir, 'pairs.csv');
  writeFileSync(crlf, pairs.map((l) => `${l}\r\n`).join(''));
  const bytes = readFileSync(crlf, 'latin1');
  assert.equal(bytes.split('\r\n').length, 102); // 101 lines, each ending CRLF
  assert.equal(bytes.split('\n').length, 102); // and no bare LF
  const { puzzles, solutions } = readSudokuCsv(crlf);
  assert.equal(puzzles.length, 100);
  assert.equal(solutions.length, 100);
  assert.equal(formatBoard(puzzles[0]!), PUZZLE);
  assert.equal(formatBoard(solutions[0]!), SOLUTION);
  puzzles.forEach((p, k) => {
    const [q, s, givens] = lines[k + 1]!.split(',');
    assert.equal(formatBoard(p), q);
    assert.equal(formatBoard(solutions[k]!), s);
    assert.equal(p.filter((v) => v > 0).length, Number(givens)); // qqwing's givens column
  });
  // CRLF after qqwing's last column (a label, not a digit string) reads like the LF file
  const all = join(crlfDir, 'all.csv');
  writeFileSync(all, lines.join('\r\n'));
  assert.deepEqual(readSudokuCsv(all), readSudokuCsv(QQWING));
});

test("the paper's example as quoted (first and last rows of puzzle and solution) parses", () => {
  // Paper, Sudoku experiments: input (080050060...603100007), solution (789251364...653184297)
  const [p1, p9, s1, s9] = ['080050060', '603100007', '789251364', '653184297'];
  for (const [p, s] of [
    [p1, s1],
    [p9, s9],
  ] as const) {
    assert.equal([...s].sort().join(''), '123456789'); // a solution row is a permutation
    for (let c = 0; c < 9; c++) assert.ok(p[c] === '0' || p[c] === s[c], `${p} vs ${s}`);
  }
  const puzzle = `${p1}${'0'.repeat(63)}${p9}`; // 0 masks a cell: 7 clues, 74 blanks
  const grid = solveByBacktracking(parseBoard(`${s1}${'0'.repeat(63)}${s9}`))!;
  assert.ok(grid, 'the quoted solution rows complete to a grid');
  const { puzzles, solutions } = parseSudokuCsv(
    csv(puzzle, `${puzzle},${formatBoard(grid)}`),
    'paper.csv',
    { limit: 2 },
  );
  assert.equal(formatBoard(puzzles[0]!), puzzle);
  assert.equal(puzzles[0]!.filter((v) => v > 0).length, 7);
  assert.equal(solutions[0], null);
  const s = formatBoard(solutions[1]!);
  assert.deepEqual([s.slice(0, 9), s.slice(72)], [s1, s9]);
});

test('the qqwing test set: limit, extra columns ignored, rows match the raw text', () => {
  const path = QQWING;
  assert.equal(readSudokuCsv(path).puzzles.length, 320);
  const set = readSudokuCsv(path, { limit: 300, requireSolutions: true });
  assert.equal(set.puzzles.length, 300);
  const raw = readFileSync(path, 'utf8').split('\n');
  for (const k of [0, 1, 150, 299]) {
    const [q, s] = raw[k + 1]!.split(',');
    assert.equal(formatBoard(set.puzzles[k]!), q);
    assert.equal(formatBoard(set.solutions[k]!), s);
  }
});

test('CRLF, a BOM, quoted fields, blank lines and dots all parse like plain LF', () => {
  const plain = parseSudokuCsv(csv(GOOD, GOOD), 'a.csv');
  const text = `\uFEFFquizzes,solutions\r\n"${PUZZLE.replaceAll('0', '.')}","${SOLUTION}"\r\n\r\n${GOOD}\r\n`;
  assert.deepEqual(parseSudokuCsv(text, 'b.csv'), plain);
});

test('puzzles without a solution are accepted unless solutions are required', () => {
  const text = csv(PUZZLE, `${PUZZLE},`, GOOD);
  const { puzzles, solutions } = parseSudokuCsv(text, 'in.csv');
  assert.equal(puzzles.length, 3);
  assert.deepEqual(solutions.slice(0, 2), [null, null]);
  assert.equal(formatBoard(solutions[2]!), SOLUTION);
  assert.throws(() => parseSudokuCsv(text, 'in.csv', { requireSolutions: true }), {
    message: 'in.csv line 2, column 2 (solutions): missing solution',
  });
});

/** A clue that agrees with its peers but not with the unique solution: no solution at all. */
function unsolvable(): string {
  for (let i = 0; i < 81; i++) {
    for (let d = 1; d <= 9 && PUZZLE[i] === '0'; d++) {
      const p = at(PUZZLE, i, String(d));
      if (String(d) !== SOLUTION[i] && !hasContradiction(parseBoard(p))) return p;
    }
  }
  throw new Error('no such clue');
}

test('bad rows: one-line errors naming the file, the 1-based line and the problem', () => {
  const fill = (n: number) => Array(n).fill(GOOD) as string[];
  const cases: [string, string][] = [
    [
      csv(...fill(5), `${PUZZLE.slice(1)},${SOLUTION}`),
      'line 7, column 1 (quizzes): puzzle has 80 characters, expected 81',
    ],
    [
      csv(`${PUZZLE},${SOLUTION}9`),
      'line 2, column 2 (solutions): solution has 82 characters, expected 81',
    ],
    [
      csv(...fill(7), `${at(at(PUZZLE, 18, '7'), 19, '7')}`),
      "line 9, column 1 (quizzes): puzzle has '7' twice in row 3",
    ],
    [
      csv(...fill(2), `${at(PUZZLE, 11, 'x')},${SOLUTION}`),
      "line 4, column 1 (quizzes): puzzle has character 'x' at position 12",
    ],
    [
      csv(`${PUZZLE},${at(SOLUTION, 80, '-')}`),
      "line 2, column 2 (solutions): solution has character '-' at position 81",
    ],
    [
      csv(
        ...fill(3),
        `${'0'.repeat(13)}3${'0'.repeat(67)},${SOLUTION.replace(/[35]/g, (d) => (d === '3' ? '5' : '3'))}`,
      ),
      'line 5, column 2 (solutions): solution does not keep the clue at row 2 column 5',
    ],
    [
      csv(...fill(4), `${PUZZLE},${at(SOLUTION, 28, '3')}`),
      'line 6, column 2 (solutions): solution is not a valid grid (row 4 repeats 3)',
    ],
    [
      csv(`${PUZZLE},${at(SOLUTION, 40, '0')}`),
      'line 2, column 2 (solutions): solution is not a valid grid (row 5 column 5 is blank)',
    ],
    [csv(GOOD, '', unsolvable()), 'line 4, column 1 (quizzes): puzzle has no solution'],
    [
      `id,board,answer\n1,${GOOD}`,
      "line 1: no puzzle column in the header 'id,board,answer'; expected a header such as puzzle,solution or quizzes,solutions",
    ],
    [
      GOOD,
      'line 1: no header line (the first line is a puzzle); expected a header such as puzzle,solution or quizzes,solutions',
    ],
    [
      `quizzes,solutions\n"${PUZZLE}`,
      'line 2: Quote Not Closed: the parsing is finished with an opening quote at line 2',
    ],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => parseSudokuCsv(text, 'in.csv'), { message: `in.csv ${message}` });
    assert.throws(() => parseSudokuCsv(text.replaceAll('\n', '\r\n'), 'in.csv'), {
      message: `in.csv ${message}`,
    });
  }
  assert.throws(() => parseSudokuCsv('', 'in.csv'), {
    message: 'in.csv: empty; expected a header such as puzzle,solution or quizzes,solutions',
  });
  // the limit stops before a bad row
  assert.equal(parseSudokuCsv(csv(GOOD, 'junk'), 'in.csv', { limit: 1 }).puzzles.length, 1);
});

test('header aliases, column order, quotes and extra columns: the same puzzles', () => {
  const want = parseSudokuCsv(csv(GOOD, GOOD), 'in.csv');
  const forms = [
    `puzzle,solution\n${GOOD}\n${GOOD}`,
    `Puzzles,Solutions,source\n${GOOD},kaggle\n${GOOD},kaggle`,
    `id,solution,puzzle\n1,${SOLUTION},${PUZZLE}\n2,${SOLUTION},${PUZZLE}`,
    `"quizzes","solutions"\n"${PUZZLE}","${SOLUTION}"\n${GOOD}`,
    `\uFEFFquizzes,solutions\r\n${GOOD}\r\n\r\n${GOOD}\r\n`,
  ];
  for (const text of forms) assert.deepEqual(parseSudokuCsv(text, 'in.csv'), want, text);
  // a file without a solution column: puzzles alone, refused where solutions are required
  const alone = parseSudokuCsv(`puzzle\n${PUZZLE}`, 'in.csv');
  assert.deepEqual(alone.solutions, [null]);
  assert.throws(() => parseSudokuCsv(`puzzle\n${PUZZLE}`, 'in.csv', { requireSolutions: true }), {
    message:
      'in.csv: no solution column (expected a header such as puzzle,solution or quizzes,solutions)',
  });
});

test('writeSudokuCsv writes atomically and round-trips; formatSudokuCsv leaves null blank', () => {
  const set = readSudokuCsv(QQWING, { limit: 20 });
  const rows = set.puzzles.map((puzzle, k) => ({
    puzzle,
    solution: k === 3 ? null : set.solutions[k]!,
  }));
  const path = join(dir, 'out.csv');
  writeFileSync(path, 'old content');
  writeSudokuCsv(path, rows);
  assert.deepEqual(readdirSync(dir), ['out.csv']); // no temporary file left behind
  const text = readFileSync(path, 'utf8');
  assert.equal(text, formatSudokuCsv(rows));
  assert.equal(text.split('\n')[0], 'quizzes,solutions');
  assert.equal(text.split('\n')[4], `${formatBoard(rows[3]!.puzzle)},`);
  const back = readSudokuCsv(path);
  assert.deepEqual(
    back.puzzles,
    rows.map((r) => r.puzzle),
  );
  assert.deepEqual(
    back.solutions,
    rows.map((r) => r.solution),
  );
  rmSync(path);
});

// ---- .npy ----

/** Shah et al. records: givens, clue quadruples first (row-major), then the rest reversed. */
function records(puzzles: Uint8Array[], solutions: Uint8Array[]): number[][] {
  return puzzles.map((p, k) => {
    const cells = [...Array(81).keys()];
    const order = [...cells.filter((i) => p[i]), ...cells.filter((i) => !p[i]).reverse()];
    const quads = order.flatMap((i) => [(i / 9) | 0, i % 9, solutions[k]![i]!, p[i] ? 0 : 2]);
    return [cells.filter((i) => p[i]).length, ...quads];
  });
}

const WRITERS: Record<string, [number, (v: DataView, o: number, x: number) => void]> = {
  '<i8': [8, (v, o, x) => v.setBigInt64(o, BigInt(x), true)],
  '<i4': [4, (v, o, x) => v.setInt32(o, x, true)],
  '<i2': [2, (v, o, x) => v.setInt16(o, x, true)],
  '|u1': [1, (v, o, x) => v.setUint8(o, x)],
  '<f4': [4, (v, o, x) => v.setFloat32(o, x, true)],
  '<f8': [8, (v, o, x) => v.setFloat64(o, x, true)],
};

/** A .npy file written by hand: magic, version, padded header dict, little-endian data. */
function npy(descr: string, rows: number[][], opts: { version?: 1 | 2; shape?: string } = {}) {
  const [size, write] = WRITERS[descr]!;
  const version = opts.version ?? 1;
  const shape = opts.shape ?? `(${rows.length}, ${rows[0]?.length ?? 325})`;
  let dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  const pre = version === 1 ? 10 : 12;
  dict += `${' '.repeat(63 - ((pre + dict.length) % 64))}\n`;
  const flat = rows.flat();
  const buf = Buffer.alloc(pre + dict.length + flat.length * size);
  buf.write('\x93NUMPY', 0, 'latin1');
  buf[6] = version;
  if (version === 1) buf.writeUInt16LE(dict.length, 8);
  else buf.writeUInt32LE(dict.length, 8);
  buf.write(dict, pre, 'latin1');
  const view = new DataView(buf.buffer, buf.byteOffset + pre + dict.length);
  for (let j = 0; j < flat.length; j++) write(view, j * size, flat[j]!);
  return buf;
}

/**
 * n valid pairs from the 320 qqwing pairs, the first 320 as they are: pair k % 320, its digits
 * shifted by v % 9 and, from v = 9 on, transposed, where v = floor(k / 320) (a relabelled or
 * transposed Sudoku is a Sudoku).
 */
function variants(n: number): { puzzles: Uint8Array[]; solutions: Uint8Array[] } {
  const qq = readSudokuCsv(QQWING, { requireSolutions: true });
  const m = qq.puzzles.length;
  const map = (b: Uint8Array, v: number) =>
    b.map((_, i) => {
      const x = b[v < 9 ? i : (i % 9) * 9 + ((i / 9) | 0)]!;
      return x && ((x - 1 + v) % 9) + 1;
    });
  const ks = [...Array(n).keys()];
  return {
    puzzles: ks.map((k) => map(qq.puzzles[k % m]!, (k / m) | 0)),
    solutions: ks.map((k) => map(qq.solutions[k % m]!, (k / m) | 0)),
  };
}
const QQ = variants(5000);

test('.npy written by hand: every dtype, versions 1.0 and 2.0, matches the CSV pairs', () => {
  const some = { puzzles: QQ.puzzles.slice(0, 40), solutions: QQ.solutions.slice(0, 40) };
  const recs = records(some.puzzles, some.solutions);
  for (const descr of Object.keys(WRITERS)) {
    for (const version of [1, 2] as const) {
      const got = parseSudokuNpy(npy(descr, recs, { version }), `h${descr}.npy`);
      assert.deepEqual(got.puzzles, some.puzzles, `${descr} v${version}`);
      assert.deepEqual(got.solutions, some.solutions, `${descr} v${version}`);
    }
  }
});

test('readSudokuNpy reads in chunks (5000 records), honours limit, names records in errors', () => {
  assert.equal(new Set(QQ.puzzles.map((p) => formatBoard(p))).size, 5000);
  const recs = records(QQ.puzzles, QQ.solutions);
  const path = join(dir, 'big.npy');
  writeFileSync(path, npy('|u1', recs));
  const all = readSudokuNpy(path);
  assert.equal(all.puzzles.length, 5000);
  assert.deepEqual(all.puzzles[4999], QQ.puzzles[4999]);
  assert.deepEqual(all.solutions[4100], QQ.solutions[4100]);
  assert.deepEqual(readSudokuNpy(path, { limit: 7 }).solutions, QQ.solutions.slice(0, 7));
  recs[4500]![1 + 4 * 30 + 1] = 9; // quadruple 30's column
  writeFileSync(path, npy('|u1', recs));
  assert.throws(() => readSudokuNpy(path), {
    message: `${path} record 4500: quadruple 30 has column 9, expected 0..8`,
  });
  assert.equal(readSudokuNpy(path, { limit: 4500 }).puzzles.length, 4500);
  rmSync(path);
});

test('.npy errors are one line naming the file and, for content, the 0-based record', () => {
  const recs = records(QQ.puzzles.slice(0, 3), QQ.solutions.slice(0, 3));
  const bad = (edit: (r: number[][]) => void, descr = '<i8') => {
    const copy = recs.map((r) => r.slice());
    edit(copy);
    return () => parseSudokuNpy(npy(descr, copy), 'd.npy');
  };
  const cases: [() => unknown, string][] = [
    [bad((r) => (r[1]![1 + 4 * 5] = 9)), 'd.npy record 1: quadruple 5 has row 9, expected 0..8'],
    [
      bad((r) => (r[2]![2 + 4 * 0] = -1)),
      'd.npy record 2: quadruple 0 has column -1, expected 0..8',
    ],
    [
      bad((r) => (r[0]![3 + 4 * 80] = 10)),
      'd.npy record 0: quadruple 80 has value 10, expected 1..9',
    ],
    [bad((r) => (r[0]![0] = 82)), 'd.npy record 0: 82 givens, expected 0..81'],
    [
      bad((r) => r[1]!.splice(1 + 4 * 7, 2, r[1]![1]!, r[1]![2]!)),
      `d.npy record 1: quadruple 7 repeats cell (${recs[1]![1]}, ${recs[1]![2]})`,
    ],
    [
      bad((r) => (r[2]![3] = 2.5), '<f8'),
      'd.npy record 2: value 2.5 at column 3 is not an integer',
    ],
    [
      () => parseSudokuNpy(Buffer.from('PK\x03\x04 not numpy'), 'd.npy'),
      'd.npy: not a .npy file (no \\x93NUMPY magic)',
    ],
    [
      () => parseSudokuNpy(npy('<i8', recs, { shape: '(3, 324)' }), 'd.npy'),
      'd.npy: shape (3, 324) is not (N, 325)',
    ],
    [
      () => parseSudokuNpy(npy('<i8', recs).subarray(0, 200), 'd.npy'),
      'd.npy: truncated: the shape needs 7800 bytes of data, the file has 72',
    ],
    [
      () =>
        parseSudokuNpy(
          Buffer.from(npy('<i8', recs).toString('latin1').replace("'<i8'", "'<c8'"), 'latin1'),
          'd.npy',
        ),
      "d.npy: unsupported dtype '<c8' (integers or floats expected)",
    ],
    [
      () =>
        parseSudokuNpy(
          Buffer.from(npy('<i8', recs).toString('latin1').replace('False', 'True '), 'latin1'),
          'd.npy',
        ),
      'd.npy: fortran_order arrays are not supported',
    ],
  ];
  for (const [f, message] of cases) assert.throws(f, { message });
  // a record whose quadruples form an invalid grid is caught by the shared pair check
  const swap = recs.map((r) => r.slice());
  const [u, v] = [3 + 4 * 79, 3 + 4 * 80]; // the values of two blank cells exchanged
  [swap[0]![u], swap[0]![v]] = [swap[0]![v]!, swap[0]![u]!];
  assert.notEqual(swap[0]![u], swap[0]![v]);
  assert.throws(
    () => parseSudokuNpy(npy('<i2', swap), 'd.npy'),
    /^Error: d\.npy record 0: solution is not a valid grid \(.+\)$/,
  );
});

const PYTHON = '/usr/bin/python3';
const hasNumpy = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import numpy'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

test('.npy written by NumPy: int64, int8, big-endian int32, float64, uint16 as version 2.0', {
  skip: hasNumpy ? false : 'python3 with numpy not available',
}, () => {
  const some = { puzzles: QQ.puzzles.slice(0, 60), solutions: QQ.solutions.slice(0, 60) };
  const json = join(dir, 'recs.json');
  writeFileSync(json, JSON.stringify(records(some.puzzles, some.solutions)));
  const script = [
    'import json, sys, numpy as np',
    'a = np.array(json.load(open(sys.argv[1])))',
    "for name, dt in [('i8', np.int64), ('i1', np.int8), ('be', '>i4'), ('f8', np.float64)]:",
    "    np.save(f'{sys.argv[2]}/{name}.npy', a.astype(dt))",
    "with open(f'{sys.argv[2]}/v2.npy', 'wb') as f:",
    '    np.lib.format.write_array(f, a.astype(np.uint16), version=(2, 0))',
    "print(np.load(f'{sys.argv[2]}/i1.npy').dtype.str, np.load(f'{sys.argv[2]}/i8.npy').dtype.str)",
  ].join('\n');
  const out = execFileSync(PYTHON, ['-c', script, json, dir], { encoding: 'utf8' });
  assert.equal(out.trim(), '|i1 <i8');
  for (const name of ['i8', 'i1', 'be', 'f8', 'v2']) {
    const path = join(dir, `${name}.npy`);
    const got = readSudokuNpy(path);
    assert.deepEqual(got.puzzles, some.puzzles, name);
    assert.deepEqual(got.solutions, some.solutions, name);
    assert.deepEqual(parseSudokuNpy(readFileSync(path), path), got, name);
    rmSync(path);
  }
});
