// `sjd solve` checks its answers (shipped model, inline puzzles): a board that breaks a rule is
// reported (which rows, columns or boxes repeat which digit, and whether the puzzle has one
// solution, several or none) with exit status 3; --file/--out writes a status column and says
// how many were solved; --out refuses an existing file unless --force and a folder at once,
// before the model runs, leaving nothing behind; --sampler takes the registry's names; a board
// that breaks the rules is solved again on symmetric copies of its puzzle while the NFE budget
// lasts (--retries), all attempts within --nfe. Sudoku's rules are on by default (the sampler
// that undoes what breaks them solves HARD at once); the model alone (--no-rules) breaks HARD,
// which the tests of the verifier and the retries use.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { DEFAULT_UNDOS, samplers } from '../src/sampling/index.js';
import { parseBoard, UNIT_NAMES, unitRepeats } from '../src/tasks/sudoku/puzzle/board.js';
import { DEFAULT_ADAPTIVE_NFE } from '../src/tasks/sudoku/solve-defaults.js';
import { withoutProgress } from './sjd-cli.js';
import { backendIndependent } from './slow.js';
import { EASY, EASY_SOLUTION, HARD } from './sudoku-puzzles.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
// a command that hangs is killed after 10 minutes, failing its test rather than holding the suite
// what it says on stderr, without the progress lines a slow solve prints (sjd-cli.ts)
const sjd = (...args: string[]) => {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, SJD_THREADS: '1' },
    timeout: 600_000,
  });
  return { ...r, stderr: withoutProgress(r.stderr) };
};

const dir = mkdtempSync(join(tmpdir(), 'sjd-solve-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const input = join(dir, 'in.csv');
writeFileSync(input, `quizzes,solutions\n${HARD}\n${EASY},${EASY_SOLUTION}\n`);

/** What breaks in `board`, by unit, as the command words it ("row 4 repeats 2"). */
const repeatsOf = (board: string): string[] =>
  UNIT_NAMES.flatMap((name, u) => {
    const d = unitRepeats(parseBoard(board), u);
    return d.length > 0 ? [`${name} repeats ${d.join(' and ')}`] : [];
  });

test('sjd solve: by default the rules and the sampler that undoes what breaks them solve HARD on the first attempt; without them it breaks', () => {
  for (const seed of ['0', '1', '2']) {
    const r = sjd('solve', HARD, '--retries', '0', '--seed', seed);
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stdout,
      new RegExp(
        `^adaptive-remask sampler \\(probability >= 0\\.9999, ${DEFAULT_UNDOS} undos\\): \\d+ NFE of ${DEFAULT_ADAPTIVE_NFE}$`,
        'm',
      ),
    );
    const board = r.stdout.trim().split('\n').pop()!;
    assert.deepEqual(repeatsOf(board), []);
    for (let i = 0; i < 81; i++) if (HARD[i] !== '0') assert.equal(board[i], HARD[i]);
    const alone = sjd('solve', HARD, '--retries', '0', '--seed', seed, '--no-rules');
    assert.equal(alone.status, 3, `seed ${seed}: the model alone breaks HARD`);
  }
  // --rules is accepted (the default); a searching sampler without the rules is refused.
  assert.equal(sjd('solve', EASY, '--rules').status, 0);
  const refused = sjd('solve', EASY, '--no-rules', '--sampler', 'adaptive-remask');
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /^sjd: the adaptive-remask sampler .* on unless --no-rules\)\n$/);
});

test('sjd solve --no-rules on a hard puzzle: the board breaks rules, the command names them and exits 3', () => {
  const r = sjd('solve', HARD, '--retries', '0', '--no-rules');
  assert.match(
    r.stdout,
    new RegExp(
      `^adaptive sampler \\(probability >= 0\\.9999\\): \\d+ NFE of ${DEFAULT_ADAPTIVE_NFE}$`,
      'm',
    ),
  );
  assert.equal(r.status, 3, r.stderr);
  const board = r.stdout.trim().split('\n').pop()!;
  assert.match(board, /^[1-9]{81}$/);
  for (let i = 0; i < 81; i++) if (HARD[i] !== '0') assert.equal(board[i], HARD[i]);
  const broken = repeatsOf(board);
  assert.ok(broken.length > 0, 'the shipped model repeats a digit here');
  assert.equal(
    r.stderr.trim(),
    `sjd: not solved: ${broken.join('; ')}; the puzzle has one solution`,
  );
});

test('sjd solve retries a broken board on symmetric copies, every attempt within the one budget', () => {
  // a budget of 96 ends the model's retries on HARD before one solves it
  const r = sjd('solve', HARD, '--no-rules', '--nfe', '96');
  assert.equal(r.status, 3, r.stderr);
  assert.match(
    r.stdout,
    /^adaptive sampler \(probability >= 0\.9999\): 96 NFE of 96 in 3 attempts$/m,
  );
  const more = sjd('solve', HARD, '--nfe', '300', '--retries', '10', '--no-rules');
  assert.equal(more.status, 0, more.stderr);
  const [, used, attempts] = /: (\d+) NFE of 300 in (\d+) attempts$/m.exec(more.stdout)!;
  assert.ok(Number(used) <= 300 && Number(attempts) > 2 && Number(attempts) <= 11, more.stdout);
  const board = more.stdout.trim().split('\n').pop()!;
  assert.deepEqual(repeatsOf(board), []);
  for (let i = 0; i < 81; i++) if (HARD[i] !== '0') assert.equal(board[i], HARD[i]);
  // The confidence policy spends its budget at once (2 NFE a step): nothing is left for a retry.
  const grid = sjd('solve', HARD, '--sampler', 'confidence', '--retries', '5', '--no-rules');
  assert.match(grid.stdout, /^confidence policy: 3[12] NFE of 32$/m);
});

test('sjd solve on an easy puzzle: the solution, exit 0, nothing on stderr', () => {
  const r = sjd('solve', EASY);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim().split('\n').pop(), EASY_SOLUTION);
  assert.equal(r.stderr, '');
});

test('sjd solve --file --out: a status column per row, the count solved, exit 3 when any is not', () => {
  const out = join(dir, 'solved.csv');
  const r = sjd('solve', '--file', input, '--out', out, '--no-rules', '--nfe', '96');
  assert.equal(r.status, 3, r.stderr);
  assert.match(
    r.stdout.trim(),
    new RegExp(
      `^solved 1 of 2 puzzles into ${out} \\(adaptive sampler \\(probability >= 0\\.9999\\); NFE per board mean \\d+\\.\\d, max 96 of 96\\) \\(first attempt 50\\.00%; 1 board retried\\)$`,
    ),
  );
  const problems = r.stderr.split('\n').filter((l) => l !== '');
  assert.deepEqual(problems, [`sjd: 1 of 2 boards not solved; see the status column of ${out}`]);
  const lines = readFileSync(out, 'utf8').trim().split('\n');
  assert.equal(lines[0], 'quizzes,solutions,status');
  const [p1, b1, s1] = lines[1]!.split(',');
  assert.equal(p1, HARD);
  assert.equal(s1, `${repeatsOf(b1!).join('; ')}; the puzzle has one solution`);
  assert.equal(lines[2], `${EASY},${EASY_SOLUTION},solved`);
  // All solved: exit 0.
  const easy = join(dir, 'easy.csv');
  writeFileSync(easy, `quizzes\n${EASY}\n`);
  const ok = sjd('solve', '--file', easy, '--out', join(dir, 'easy-out.csv'));
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /^solved 1 of 1 puzzles into /);
});

test('sjd solve --out: an existing file is refused before the model runs unless --force', {
  skip: backendIndependent,
}, () => {
  const out = join(dir, 'exists.csv');
  writeFileSync(out, 'keep me');
  // A missing --model would fail later: the out check comes first.
  const r = sjd('solve', '--file', input, '--out', out, '--model', join(dir, 'no-model'));
  assert.equal(r.status, 1);
  assert.equal(
    r.stderr.trim(),
    `sjd: ${out} exists; choose another --out or pass --force to replace it`,
  );
  assert.equal(readFileSync(out, 'utf8'), 'keep me');
  const forced = sjd(
    'solve',
    '--file',
    input,
    '--out',
    out,
    '--force',
    '--no-rules',
    '--nfe',
    '96',
  );
  assert.equal(forced.status, 3, forced.stderr);
  assert.match(readFileSync(out, 'utf8'), /^quizzes,solutions,status\n/);
});

test('sjd solve --out a folder fails at once and leaves nothing behind', {
  skip: backendIndependent,
}, () => {
  const folder = join(dir, 'folder');
  mkdirSync(folder);
  const before = readdirSync(dir).sort();
  const r = sjd('solve', '--file', input, '--out', folder, '--model', join(dir, 'no-model'));
  assert.equal(r.status, 1);
  assert.equal(
    r.stderr.trim(),
    `sjd: --out ${folder} is a folder, not a file; choose another --out`,
  );
  assert.deepEqual(readdirSync(folder), []);
  assert.deepEqual(readdirSync(dir).sort(), before);
});

for (const [args, message] of [
  [['solve', EASY, '--out', 'x.csv'], /^sjd: --out goes with --file \(one puzzle is printed\)$/],
  [['solve', '--file', input], /^sjd: --file needs --out$/],
  [
    ['solve', EASY, '--sampler', 'bogus'],
    new RegExp(`argument 'bogus' is invalid. expected one of ${[...samplers.keys()].join(', ')}$`),
  ],
] as [string[], RegExp][]) {
  test(`sjd solve bad input, one line: ${args.filter((a) => a.startsWith('--')).join(' ')}`, {
    skip: backendIndependent,
  }, () => {
    const r = sjd(...args);
    assert.notEqual(r.status, 0);
    assert.notEqual(r.status, 3);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr.trim(), message);
  });
}

test('sjd solve --sampler takes every registered sampler name', {
  skip: backendIndependent,
}, () => {
  const r = sjd('solve', '--help');
  assert.equal(r.status, 0);
  const help = r.stdout.replace(/\s+/g, ' ');
  assert.match(help, new RegExp(`\\(${[...samplers.keys()].join(', ')}\\)`));
  const sjdSampler = sjd('solve', EASY, '--sampler', 'sjd', '--nfe', '8');
  assert.ok(sjdSampler.status === 0 || sjdSampler.status === 3, sjdSampler.stderr);
  if (sjdSampler.status === 3) assert.match(sjdSampler.stderr, /^sjd: not solved: /);
});

test('sjd solve --file and sjd eval sudoku across worker processes: the same boards and scores as in one process', {
  skip: backendIndependent,
}, () => {
  // HARD breaks without the rules, so it retries; three parts of four puzzles or fewer (four
  // batches of one), two workers (one of them takes a second part when it is free)
  const many = join(dir, 'many.csv');
  const rows = [HARD, EASY, EASY, HARD, HARD, EASY, EASY, EASY, HARD, EASY];
  writeFileSync(many, `quizzes\n${rows.join('\n')}\n`);
  const solveWith = (workers: string) => {
    const out = join(dir, `many-${workers}.csv`);
    const r = sjd(
      'solve',
      '--file',
      many,
      '--out',
      out,
      '--no-rules',
      '--nfe',
      '96',
      '--batch',
      '1',
      '--workers',
      workers,
    );
    assert.equal(r.status, 3, r.stderr);
    return { stdout: r.stdout, csv: readFileSync(out, 'utf8') };
  };
  const one = solveWith('1');
  assert.match(one.stdout, /^solved \d+ of 10 puzzles into /);
  assert.deepEqual(solveWith('2'), {
    ...one,
    stdout: one.stdout.replace('many-1.csv', 'many-2.csv'),
  });
  // eval: every score but the speed
  const pairs = join(dir, 'pairs.csv');
  writeFileSync(
    pairs,
    `quizzes,solutions\n${[EASY, EASY, EASY, EASY, EASY].map((p) => `${p},${EASY_SOLUTION}`).join('\n')}\n`,
  );
  const evalWith = (workers: string) => {
    const r = sjd(
      'eval',
      'sudoku',
      '--data',
      pairs,
      '--batch',
      '1',
      '--workers',
      workers,
      '--json',
    );
    assert.equal(r.status, 0, r.stderr);
    const {
      boards_per_s: _b,
      seconds: _s,
      by_nodes,
      ...scores
    } = JSON.parse(r.stdout.trim().split('\n').pop()!);
    for (const b of Object.values(by_nodes) as { boards_per_s?: number }[]) delete b.boards_per_s;
    return { ...scores, by_nodes };
  };
  assert.deepEqual(evalWith('2'), evalWith('1'));
  const bad = sjd('eval', 'sudoku', '--data', pairs, '--workers', '0');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--workers/);
});
