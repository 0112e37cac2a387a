// sjd where the libtorch addon does not load (src/torch/native.ts, src/torch/js/): a package
// folder without its build/ (as an install whose C++ build failed) falls back to the TypeScript
// backend, says so in `sjd info` and the demo's first line, solves a held-out puzzle with the
// shipped model, samples the text and image models, scores a puzzle file, refuses training in one line naming libtorch, and SJD_BACKEND=torch there fails
// naming the fix. On a terminal, a command that runs a model names its backend first.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from './tmp.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
// a puzzle of the no-guess test set and its solution
const PUZZLE = '780000000500009100000010700802500003010300980070000000620800000003000005000006009';
const SOLUTION =
  '781253496564789132239614758892571643415362987376948521627895314943127865158436279';

/** The package's files without build/ (the addon), its modules linked. */
function packageWithoutAddon(): string {
  const dir = join(tempDir(), 'sjd');
  for (const d of ['bin', 'dist/src', 'models'])
    cpSync(join(root, d), join(dir, d), { recursive: true });
  copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

test('without the addon, sjd runs the TypeScript backend: info, a solve, training refused', () => {
  const dir = packageWithoutAddon();
  const env = { ...process.env, SJD_BACKEND: '' };
  const sjd = (...args: string[]) =>
    spawnSync('node', [join(dir, 'bin', 'sjd.js'), ...args], { encoding: 'utf8', env, cwd: dir });
  const info = sjd('info');
  assert.equal(info.status, 0, info.stderr);
  assert.match(
    info.stdout.split('\n')[0]!,
    /^backend: TypeScript backend \(the libtorch addon did not load: .*npm rebuild sjd/,
  );
  const solve = sjd('solve', PUZZLE);
  assert.equal(solve.status, 0, solve.stderr);
  assert.ok(solve.stdout.trim().split('\n').includes(SOLUTION), solve.stdout);
  // the other shipped models sample, and a puzzle file is scored
  const text = sjd('sample', 'text', '-n', '1', '--nfe', '8');
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /^[a-z ]{256}\n$/);
  const image = sjd('sample', 'image', '-n', '2', '--nfe', '8', '--out', 'grid.png');
  assert.equal(image.status, 0, image.stderr);
  assert.match(image.stdout, /^wrote grid\.png: 2 images of 28 x 28 x 1/);
  writeFileSync(join(dir, 'one.csv'), `puzzle,solution\n${PUZZLE},${SOLUTION}\n`);
  const evalRun = sjd('eval', 'sudoku', '--data', 'one.csv', '--json');
  assert.equal(evalRun.status, 0, evalRun.stderr);
  assert.equal(JSON.parse(evalRun.stdout.trim().split('\n').at(-1)!).solve_rate, 1);
  const train = sjd('train', 'sudoku', '--size', 'tiny', '--steps', '2', '--out', 'run');
  assert.equal(train.status, 1);
  assert.equal(
    train.stderr.trim(),
    "sjd: training needs the libtorch backend; this process runs the TypeScript backend (install libtorch (apt-get install libtorch-dev) and run 'npm rebuild sjd': the addon is then used where it loads)",
  );
  const forced = spawnSync('node', [join(dir, 'bin', 'sjd.js'), 'solve', PUZZLE], {
    encoding: 'utf8',
    env: { ...process.env, SJD_BACKEND: 'torch' },
  });
  assert.equal(forced.status, 1);
  assert.match(forced.stderr, /cannot load the libtorch addon .*npm rebuild sjd/);
  assert.equal(forced.stderr.trim().split('\n').length, 1);
});

const script = spawnSync('script', ['--version'], { encoding: 'utf8' });
test('on a terminal, a command that runs a model names its backend on its first line of stderr', {
  skip: script.status === 0 ? false : 'util-linux script is not installed',
}, () => {
  const bin = join(root, 'bin', 'sjd.js');
  const { SJD_PRECISION: _, ...autoEnv } = process.env; // the default setting, auto
  const run = (backend: string) =>
    spawnSync(
      'script',
      ['-qec', `SJD_BACKEND=${backend} node ${bin} solve ${PUZZLE} > /dev/null`, '/dev/null'],
      { encoding: 'utf8', env: { ...autoEnv, SJD_THREADS: '1' } },
    );
  const js = run('js');
  assert.equal(js.status, 0, js.stdout);
  assert.equal(
    js.stdout.split(/\r?\n/)[0],
    'sjd solve: TypeScript backend (SJD_BACKEND=js), float32 (auto: the TypeScript backend computes in float32)',
  );
  const torch = run('torch');
  assert.match(torch.stdout.split(/\r?\n/)[0]!, /^sjd solve: libtorch \d+\.\d+[^,]*, \w+ \(auto: /);
  // piped, stderr holds only what goes wrong
  const piped = spawnSync('node', [bin, 'solve', PUZZLE], { encoding: 'utf8' });
  assert.equal(piped.stderr, '');
});
