// Every `sjd` command line the docs show parses: the command lines of README.md and docs/**/*.md
// (the reports' reproduce lines too) — in shell code blocks (`npx sjd ...`, `node bin/sjd.js ...`,
// continuation lines joined, comments and what follows `&&`, `;`, `|`, `>` cut) and in inline code
// (`npx sjd ...`, `sjd ...` with flags or placeholders) — are parsed as `node bin/sjd.js ARGS`
// with SJD_PARSE_ONLY=1 (src/cli/program.ts) parses them: commander matches the command, checks
// required options and runs every option's value parser, then exits 0 before the command runs
// (many lines in one process, parse-only-runner.ts, checked against bin/sjd.js below). Inline
// code that only names a command (`sjd eval sudoku`) is checked by `--help`: its usage line must
// name the same command. The docs' synopses are expanded first (doc-lines.ts; temporary paths
// for FILE, DIR and PATH: nothing is read or written in parse-only mode); doc-runs.test.ts runs
// the literal lines.
// KNOWN_FAILURES names the lines today's CLI refuses, with the reason; each must still fail (so
// that the entry is removed when the CLI accepts it). SKIPPED names lines not run, with the reason.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { outputOf } from './child-output.js';
import { type DocCommand, docCommands, docFiles, root } from './doc-lines.js';
import type { Ran } from './parse-only-runner.js';
import { tempDir } from './tmp.js';

const bin = join(root, 'bin/sjd.js');
const runner = new URL('./parse-only-runner.js', import.meta.url).pathname;
const tmp = tempDir('sjd-doc-commands-');

const all = docCommands(tmp);

/**
 * Lines today's CLI refuses: [file, the line's args as a prefix, why, what it says]. Each must
 * still fail, saying so (when the CLI accepts one, its entry goes).
 */
const KNOWN_FAILURES: [string, string, string, RegExp][] = [];
/** Lines not run: [file, the line's args as a prefix, why]. */
const SKIPPED: [string, string, string][] = [
  [
    'docs/library.md',
    '--task-module ./my-task.mjs',
    "the module is docs/library.md's own, run (train, sample, serve) by test/task-module.test.ts",
  ],
];

const listed = <T extends [string, string, ...unknown[]]>(list: T[], c: DocCommand) =>
  list.find(([file, prefix]) => c.file === file && c.args.join(' ').startsWith(prefix));

/** `node bin/sjd.js ARGS` in parse-only mode. */
const run = (args: string[]): Promise<Ran> =>
  new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, SJD_PARSE_ONLY: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const o = outputOf(child);
    child.on('close', (status) => done({ status, ...o }));
  });

/** The lines parsed in one process (parse-only-runner.ts), each as `run` would give it. */
const runBatch = (lines: string[][], at: string): Promise<Ran[]> =>
  new Promise((done, fail) => {
    const [input, output] = [`${at}-lines.json`, `${at}-out.json`];
    writeFileSync(input, JSON.stringify(lines));
    const child = spawn(process.execPath, [runner, input, output], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const o = outputOf(child);
    child.on('close', (status) =>
      status === 0
        ? done(JSON.parse(readFileSync(output, 'utf8')))
        : fail(new Error(`parse-only runner: exit ${status}: ${o.stderr}`)),
    );
  });

/**
 * The runs of many command lines: in one process per core (each Node start-up loads the whole
 * library, about 0.8 s), a line that loads a task module in a process of its own.
 */
async function runAll(lines: string[][]): Promise<Ran[]> {
  const out: Ran[] = new Array(lines.length);
  const own = lines.flatMap((l, i) => (l.includes('--task-module') ? [i] : []));
  const shared = lines.flatMap((l, i) => (l.includes('--task-module') ? [] : [i]));
  const parts = Math.min(2, availableParallelism());
  const chunks = Array.from({ length: parts }, (_, k) => shared.filter((_, j) => j % parts === k));
  await Promise.all([
    ...chunks.map(async (idx, k) => {
      const rans = await runBatch(
        idx.map((i) => lines[i]!),
        join(tmp, `batch${k}`),
      );
      idx.forEach((i, j) => {
        out[i] = rans[j]!;
      });
    }),
    ...own.map(async (i) => {
      out[i] = await run(lines[i]!);
    }),
  ]);
  return out;
}

test('the docs show the commands this test is for', () => {
  const files = new Set(all.map((c) => c.file));
  assert.ok(all.length >= 40, `only ${all.length} command lines found`);
  const reports = docFiles().filter((f) =>
    /^Reproduce: `npx sjd /m.test(readFileSync(join(root, f), 'utf8')),
  );
  assert.ok(reports.length >= 10, reports.join(', '));
  for (const f of reports) assert.ok(files.has(f), `${f}: its reproduce line was not found`);
  assert.ok(
    all.some((c) => c.file === 'README.md' && c.args.join(' ') === 'demo'),
    "the set-up line's `npx sjd demo`",
  );
  for (const [file, prefix] of [...KNOWN_FAILURES, ...SKIPPED])
    assert.ok(
      all.some((c) => listed([[file, prefix]], c)),
      `${file}: no line starts with '${prefix}' any more: remove its entry`,
    );
});

test('parse-only mode refuses what the command would refuse', async () => {
  const r = await run(['train', 'sudoku', '--out', join(tmp, 'x'), '--size', 'huge']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^sjd: .*'--size <name>' argument 'huge' is invalid/);
  const ok = await run(['--device', 'cuda', 'train', 'sudoku', '--out', join(tmp, 'x')]);
  assert.equal(ok.status, 0, ok.stderr); // parsed only: no CUDA needed
  assert.equal(ok.stdout.trim(), 'sjd: parsed train sudoku');
  // the lines the docs show are parsed many in one process: the same status and output
  const help = await run(['solve', '--help']);
  const batch = await runBatch(
    [
      ['train', 'sudoku', '--out', join(tmp, 'x'), '--size', 'huge'],
      ['--device', 'cuda', 'train', 'sudoku', '--out', join(tmp, 'x')],
      ['solve', '--help'],
    ],
    join(tmp, 'check'),
  );
  assert.deepEqual(batch, [r, ok, help]);
});

// One test per distinct command line, named with its first place in the docs.
const seen = new Map<string, DocCommand>();
for (const c of all) {
  const key = `${c.mention ? 'help ' : ''}${c.args.join('\u0000')}`;
  if (!seen.has(key)) seen.set(key, c);
}
const commands = [...seen.values()];
const toRun = commands.filter((c) => !listed(SKIPPED, c));

// One subtest per line, inside one test that is declared before any await: under
// --test-force-exit the runner exits once the tests it knows of have finished, so tests declared
// after a top-level await never ran, and top-level tests run one after another could be cut off
// between two of them (4 of 201 once, with no failure reported); a test that awaits its subtests
// is not finished until they are.
test('every command line of the docs parses, and every command it names exists', async (t) => {
  const results = await runAll(toRun.map((c) => (c.mention ? [...c.args, '--help'] : c.args)));
  const ran = new Map(toRun.map((c, i) => [c, results[i]!]));
  for (const c of commands) {
    const where = `${c.file}:${c.line}`;
    const skip = listed(SKIPPED, c);
    const known = listed(KNOWN_FAILURES, c);
    const what = c.mention ? 'names a command' : known ? 'refused, a known failure' : 'parses';
    await t.test(`${what}: sjd ${c.args.join(' ')} (${where})`, { skip: skip?.[2] }, () => {
      const r = ran.get(c)!;
      if (c.mention) {
        assert.equal(r.status, 0, r.stderr);
        const usage = /^Usage: sjd ((?:[a-z0-9-]+ ?)*)/m.exec(r.stdout)?.[1]?.trim();
        assert.equal(usage, c.args.join(' '), `${where}: \`${c.text}\` is not a command`);
        return;
      }
      if (c.args.includes('--help')) {
        assert.equal(r.status, 0, r.stderr);
        assert.match(r.stdout, /^Usage: sjd /);
        return;
      }
      if (known) {
        assert.equal(r.status, 2, `${where}: now parses; remove its KNOWN_FAILURES entry`);
        assert.match(r.stderr, known[3], `${where}: fails for another reason than ${known[2]}`);
        return;
      }
      assert.equal(r.status, 0, `${where}: \`${c.text}\`: ${r.stderr.trim()}`);
      assert.match(r.stdout, /^sjd: parsed /);
    });
  }
});
