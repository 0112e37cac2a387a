// `sjd --task-module FILE`: a task of the user's own, in a module outside sjd, joins the shipped
// command. The module is docs/library.md's own ("A task of your own"), as a user would save it;
// it imports 'sjd' (here a link to this checkout, as node_modules/sjd is in a user's project),
// registers the toy task, and then `sjd train`, `sjd sample` and `sjd serve` have it: a trained
// model's samples are repeats (at least 3 in 4; an untrained one's 1 in 4^7). A module that
// default-exports a function of the library registers without importing 'sjd', and its task may
// declare flags of its own (a bad value refused as a shipped flag's, its cross-flag check run
// before the comparison); a missing file, a folder and a module that registers nothing are
// refused in one line, exit 2.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { exerciseTaskModule, taskModuleExample, writeExamples } from './doc-examples.js';
import { tempDir } from './tmp.js';

const root = new URL('../..', import.meta.url).pathname;
const bin = join(root, 'bin/sjd.js');
const sjd = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });

test("docs/library.md's task module trains, samples and serves through sjd", async () => {
  const dir = tempDir('sjd-task-module-');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules/sjd'));
  const example = taskModuleExample();
  const module = writeExamples(dir, [example]).get(example)!;
  await exerciseTaskModule([process.execPath, bin], dir, module);
});

test('a module whose default export is a function of the library registers its task', () => {
  const dir = tempDir('sjd-task-fn-');
  writeFileSync(
    join(dir, 'fn-task.mjs'),
    `export default (sjd) => ({
  name: 'fntask',
  shape: () => ({ name: 'fntask', length: 4, classes: 2 }),
  load: () => { throw new Error('no model'); },
  sampling: { ...sjd.sampling.SAMPLING_DEFAULTS, nfe: () => 8 },
  train: { description: 'a task given as a function', sizes: {}, defaults: {}, prepare: () => { throw new Error('not here'); } },
});
`,
  );
  const r = sjd(dir, '--task-module', 'fn-task.mjs', 'train', '--help');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /fntask \[options\] +a task given as a function/);
});

test("a module's task declares its own flags of sjd train and sjd compare", () => {
  const dir = tempDir('sjd-task-flags-');
  writeFileSync(
    join(dir, 'flag-task.mjs'),
    `export default (sjd) => ({
  name: 'flagtask',
  shape: () => ({ name: 'flagtask', length: 4, classes: 2 }),
  load: () => { throw new Error('no model'); },
  sampling: { ...sjd.sampling.SAMPLING_DEFAULTS, nfe: () => 8 },
  train: {
    description: 'a task with flags',
    sizes: { tiny: {} },
    defaults: { process: 'masked', blend: 'identity', bandwidth: 1, schedule: 'linear' },
    flags: [
      { flags: '--rows <n>', description: 'rows a batch', parse: sjd.util.integerIn(1, 9), default: 4 },
      { flags: '--old-rows <n>', description: 'the earlier name of --rows', hidden: true },
    ],
    prepare: () => { throw new Error('not here'); },
  },
  compare: {
    description: 'compare on the flag task',
    models: { help: 'nothing more', defaults: ['masked'] },
    seeds: ['0'],
    doc: 'report.md',
    flags: [{ flags: '--width <w>', description: 'narrow or wide', parse: sjd.util.oneOf(['narrow', 'wide']) }],
    check: (f, given) => {
      if (f.width && !given('seeds')) throw new Error('--width needs --seeds');
      return f.width ? { width: f.width.toUpperCase() } : undefined;
    },
    run: async (o) => { console.log('width ' + o.width); return true; },
  },
});
`,
  );
  const run = (env: Record<string, string>, ...args: string[]) =>
    spawnSync(process.execPath, [bin, '--task-module', 'flag-task.mjs', ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
  const help = run({}, 'train', 'flagtask', '--help');
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /--rows <n> +rows a batch \(default: 4\)/);
  assert.doesNotMatch(help.stdout, /--old-rows/);
  const bad = run({ SJD_PARSE_ONLY: '1' }, 'train', 'flagtask', '--out', 'x', '--rows', '10');
  assert.equal(bad.status, 2);
  assert.equal(
    bad.stderr,
    "sjd: option '--rows <n>' argument '10' is invalid. expected an integer in [1, 9]\n",
  );
  const compare = ['compare', 'flagtask', '--out', 'runs', '--steps', '1'];
  assert.match(run({}, ...compare, '--help').stdout, /--width <w> +narrow or wide/);
  const alone = run({}, ...compare, '--width', 'wide');
  assert.equal(alone.status, 1);
  assert.equal(alone.stderr, 'sjd: --width needs --seeds\n');
  const checked = run({}, ...compare, '--width', 'wide', '--seeds', '0');
  assert.equal(checked.status, 0, checked.stderr);
  assert.match(checked.stdout, /^width WIDE\nwrote report\.md\n$/);
});

test('bad task modules are refused in one line', () => {
  const dir = tempDir('sjd-task-bad-');
  writeFileSync(join(dir, 'nothing.mjs'), 'export const x = 1;\n');
  writeFileSync(join(dir, 'throws.mjs'), "throw new Error('broken on purpose');\n");
  // a spec without train (every command failed with a stack trace)
  writeFileSync(
    join(dir, 'untrained.mjs'),
    "export default (sjd) => ({ name: 'untrained', sampling: { ...sjd.sampling.SAMPLING_DEFAULTS } });\n",
  );
  // a default export whose promise never settles (sjd info exited 0 with no output)
  writeFileSync(join(dir, 'hangs.mjs'), 'export default () => new Promise(() => {});\n');
  mkdirSync(join(dir, 'folder'));
  const cases: [string, RegExp][] = [
    ['missing.mjs', /^sjd: --task-module missing\.mjs: no such file\n$/],
    ['folder', /^sjd: --task-module folder: is a folder, not a module\n$/],
    [
      'nothing.mjs',
      /^sjd: --task-module nothing\.mjs: registered no task \(call registerTask from the 'sjd' this command runs from, .*\)\n$/,
    ],
    ['throws.mjs', /^sjd: --task-module throws\.mjs: broken on purpose\n$/],
    [
      'untrained.mjs',
      /^sjd: --task-module untrained\.mjs: task 'untrained': its spec lacks load, shape, train \(docs\/library\.md, "A task of your own"\)\n$/,
    ],
    [
      'hangs.mjs',
      /^sjd: --task-module hangs\.mjs: did not finish loading within 10 s \(does its default export return a promise that never settles\?\)\n$/,
    ],
  ];
  for (const [file, want] of cases) {
    const r = sjd(dir, '--task-module', file, 'info');
    assert.equal(r.status, 2, `${file}: ${r.stderr}`);
    assert.match(r.stderr, want);
  }
});
