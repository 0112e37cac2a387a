// No command overwrites a file it did not write (README: "nothing of yours is overwritten"). The
// commands and their output flags (--out, --doc, --trace) are read from the CLI's command tree as
// its help lists them (program.ts, in this process), so a command that gains an output path is
// caught here until it has a case: every case points one flag at a user's file (or a user's
// folder, or a user's file where the command writes inside a folder or beside its report) and
// must be refused in one line, with the sandbox
// byte-for-byte unchanged. A comparison's report that sjd wrote (every one in docs/reports/) is
// recognised as sjd's, so running a comparison again rewrites it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import type { Command } from 'commander';
import { buildProgram } from '../src/cli/program.js';
import { COMPARISON_REPORT } from '../src/lab/comparison-report.js';
import { formatSudokuCsv } from '../src/tasks/sudoku/puzzle/csv.js';
import { generatePuzzles } from '../src/tasks/sudoku/puzzle/generator.js';
import { FRONTIER_FILE } from '../src/tasks/text/frontier.js';
import { claimOutFiles } from '../src/util/out-path.js';
import { tempDir } from './tmp.js';

const root = new URL('../..', import.meta.url).pathname;
const bin = join(root, 'bin', 'sjd.js');
const sjd = (args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, SJD_THREADS: '1' },
    timeout: 120_000,
  });

const OUTPUT_FLAGS = ['--out', '--doc', '--trace'];

/** Every command (its path) with the output paths it takes, as its help lists them. */
function outputFlags(cmd: Command = buildProgram(), path: string[] = []): Map<string, string[]> {
  const help = cmd.createHelp();
  const found = new Map<string, string[]>();
  const flags = help
    .visibleOptions(cmd)
    .filter((o) => o.required || o.optional) // a path, not a switch (solve's --trace shows steps)
    .map((o) => o.long)
    .filter((f): f is string => f !== undefined && OUTPUT_FLAGS.includes(f));
  if (path.length > 0 && flags.length > 0) found.set(path.join(' '), flags);
  for (const c of help.visibleCommands(cmd).filter((c) => c.name() !== 'help'))
    for (const [k, v] of outputFlags(c, [...path, c.name()])) found.set(k, v);
  return found;
}

const box = tempDir('sjd-overwrite-');
const p = (...parts: string[]) => join(box, ...parts);

/** Every path under the sandbox with the hash of its bytes. */
function snapshot(dir = box): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir)) {
    const full = join(dir, e);
    if (statSync(full).isDirectory()) {
      out[`${full}/`] = '';
      Object.assign(out, snapshot(full));
    } else out[full] = createHash('sha256').update(readFileSync(full)).digest('hex');
  }
  return out;
}

const MINE = 'a file of the user that no command may replace\n';
const mine = (...parts: string[]) => {
  writeFileSync(p(...parts), MINE);
  return p(...parts);
};

before(() => {
  mkdirSync(p('folder'));
  mine('folder', 'notes.txt'); // a user's non-empty folder
  for (const f of ['user.md', 'user.png', 'user.csv', 'user.safetensors', 'user.svg', 'user-file'])
    mine(f);
  // a report's plot, data and grid the user has, beside a report that does not exist yet
  for (const f of ['fresh.svg', 'fresh-text.json', 'fresh-image-masked.png']) mine(f);
  // an --out folder of `eval text --frontier` holding the user's frontier.json or .svg
  for (const d of ['frontier-json', 'frontier-svg']) mkdirSync(p(d));
  mine('frontier-json', 'frontier.json');
  mine('frontier-svg', 'frontier.svg');
  writeFileSync(p('dna.txt'), 'ACGTACGT\n'.repeat(12)); // sequences for `train sequences`
  const g = generatePuzzles(4, { seed: 5 });
  writeFileSync(p('puzzles.csv'), formatSudokuCsv(g));
  const t = sjd([
    ...['train', 'sudoku', '--size', 'tiny', '--steps', '1', '--out', p('run')],
    ...['--data', p('puzzles.csv'), '--eval-data', p('puzzles.csv')],
    ...['--eval-size', '2', '--eval-nfe', '2'],
  ]);
  assert.equal(t.status, 0, t.stderr);
});

/** The cases, by `command flag`: each points the flag at something of the user's. */
const CMP = ['--steps', '1', '--seeds', '0', '--models', 'hybrid'];
const cases: Record<string, (() => string[])[]> = {
  'demo --out': [() => ['demo', 'image', '--out', p('user.png')]],
  'train sudoku --out': [
    () => ['train', 'sudoku', '--out', p('user-file')],
    () => ['train', 'sudoku', '--out', p('folder')],
  ],
  'train text --out': [
    () => ['train', 'text', '--out', p('user-file')],
    () => ['train', 'text', '--out', p('folder')],
  ],
  'train image --out': [
    () => ['train', 'image', '--out', p('user-file')],
    () => ['train', 'image', '--out', p('folder')],
  ],
  'train sequences --out': [
    () => ['train', 'sequences', '--data', p('dna.txt'), '--out', p('user-file')],
    () => ['train', 'sequences', '--data', p('dna.txt'), '--out', p('folder')],
  ],
  'train features --out': [
    () => ['train', 'features', '--out', p('user-file')],
    () => ['train', 'features', '--out', p('folder')],
  ],
  'solve --out': [() => ['solve', '--file', p('puzzles.csv'), '--out', p('user.csv')]],
  'eval text --out': [
    () => ['eval', 'text', '--frontier', '--out', p('frontier-json')],
    () => ['eval', 'text', '--frontier', '--out', p('frontier-svg')],
  ],
  'data text --out': [
    () => ['data', 'text', '--out', p('user-file')],
    () => ['data', 'text', '--out', p('folder')],
  ],
  'data tokens --out': [
    () => ['data', 'tokens', '--from', 'sotu', '--tokenizer', 'gpt2', '--out', p('user-file')],
    () => ['data', 'tokens', '--from', 'sotu', '--tokenizer', 'gpt2', '--out', p('folder')],
  ],
  'data sudoku --out': [() => ['data', 'sudoku', '--out', p('user.csv'), '--count', '1']],
  'data images --out': [() => ['data', 'images', '--out', p('user.safetensors')]],
  'sample image --out': [() => ['sample', 'image', '--out', p('user.png')]],
  'sample image --trace': [
    () => ['sample', 'image', '--out', p('new.png'), '--trace', p('user.png')],
  ],
  'compare sudoku --out': [() => ['compare', 'sudoku', ...CMP, '--out', p('user-file')]],
  'compare sudoku --doc': [
    () => ['compare', 'sudoku', ...CMP, '--out', p('cmp'), '--doc', p('user.md')],
    () => ['compare', 'sudoku', ...CMP, '--out', p('cmp'), '--doc', p('fresh.md')],
  ],
  'compare text --out': [() => ['compare', 'text', ...CMP, '--out', p('user-file')]],
  'compare text --doc': [
    () => ['compare', 'text', ...CMP, '--out', p('cmp'), '--doc', p('user.md')],
    () => ['compare', 'text', ...CMP, '--out', p('cmp'), '--doc', p('fresh-text.md')],
  ],
  'compare image --out': [() => ['compare', 'image', ...CMP, '--out', p('user-file')]],
  'compare image --doc': [
    () => ['compare', 'image', ...CMP, '--out', p('cmp'), '--doc', p('user.md')],
    () => [
      'compare',
      'image',
      ...CMP,
      '--models',
      'masked',
      '--out',
      p('cmp'),
      '--doc',
      p('fresh-image.md'),
    ],
  ],
  'export --out': [
    () => ['export', '--run', p('run'), '--out', p('user-file')],
    () => ['export', '--run', p('run'), '--out', p('folder')],
  ],
  'figure eta-commit --out': [() => ['figure', 'eta-commit', '--out', p('user.svg')]],
  'figure diffusion-comparison --out': [
    () => ['figure', 'diffusion-comparison', '--out', p('user.svg')],
  ],
};

test('every command that takes an output path has a case here', () => {
  const found = outputFlags();
  const keys = [...found].flatMap(([cmd, flags]) => flags.map((f) => `${cmd} ${f}`)).sort();
  assert.ok(keys.length >= 15, `found only ${keys.join(', ')}`);
  assert.deepEqual(keys, Object.keys(cases).sort());
});

for (const [key, makers] of Object.entries(cases))
  test(`${key}: a user's file is refused without --force and left as it was`, () => {
    for (const make of makers) {
      const before_ = snapshot();
      const args = make();
      const r = sjd(args);
      assert.notEqual(r.status, 0, `${args.join(' ')} succeeded:\n${r.stdout}`);
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.length, 1, `${args.join(' ')}: one line, got:\n${r.stderr}`);
      assert.match(lines[0]!, /^sjd: /);
      assert.doesNotMatch(r.stderr, /\n\s+at /); // no stack trace
      assert.deepEqual(snapshot(), before_, `${args.join(' ')} changed the sandbox`);
    }
  });

test('a refused output names its own flag and --force where --force replaces it', () => {
  const trace = sjd(['sample', 'image', '--out', p('new.png'), '--trace', p('user.png')]);
  assert.match(trace.stderr, /user\.png exists; choose another --trace or pass --force/);
  const doc = sjd(['compare', 'sudoku', ...CMP, '--out', p('cmp'), '--doc', p('user.md')]);
  assert.match(
    doc.stderr,
    /user\.md exists and is not a comparison report sjd wrote; choose another --doc or pass --force/,
  );
  const beside = sjd(['compare', 'sudoku', ...CMP, '--out', p('cmp'), '--doc', p('fresh.md')]);
  assert.match(beside.stderr, /fresh\.svg \(written beside .*fresh\.md\) exists/);
  const frontier = sjd(['eval', 'text', '--frontier', '--out', p('frontier-json')]);
  assert.match(frontier.stderr, /frontier\.json exists and is not a frontier sjd wrote/);
});

test("sjd's own reports (every report in docs/) and frontiers are recognised and may be rewritten", () => {
  const docs = join(root, 'docs');
  // the comparisons' reports, docs/reports/<task>/*.md (the others there are written by hand or
  // by a bench script, and end without a reproduce line of sjd's)
  const reports = ['sudoku', 'text', 'image'].flatMap((task) =>
    readdirSync(join(docs, 'reports', task))
      .filter((f) => f.endsWith('.md') && !['rank-schedule.md', 'speckle.md'].includes(f))
      .map((f) => join('reports', task, f)),
  );
  assert.ok(reports.length >= 10, reports.join(', '));
  for (const f of reports) assert.ok(COMPARISON_REPORT.isOurs(join(docs, f)), f);
  assert.ok(!COMPARISON_REPORT.isOurs(join(docs, 'design.md')));
  assert.ok(!COMPARISON_REPORT.isOurs(p('user.md')));
  // a report of sjd's is claimed with its plot beside it, which the user's own is not
  const dir = tempDir('sjd-report-');
  copyFileSync(join(docs, 'reports', 'sudoku', 'comparison.md'), join(dir, 'r.md'));
  writeFileSync(join(dir, 'r.svg'), '<svg/>');
  claimOutFiles(join(dir, 'r.md'), [join(dir, 'r.svg')], false, {
    flag: '--doc',
    kind: COMPARISON_REPORT,
  });
  writeFileSync(join(dir, 'f.json'), JSON.stringify({ curves: [{ label: 'a', points: [] }] }));
  assert.ok(FRONTIER_FILE.isOurs(join(dir, 'f.json')));
  assert.ok(!FRONTIER_FILE.isOurs(p('frontier-json', 'frontier.json')));
});
