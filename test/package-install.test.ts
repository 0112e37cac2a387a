// The package as users get it: `npm pack`'s tarball installed with --omit=dev into an empty
// project (npm install builds the addon there: here against python3's torch package,
// LIBTORCH_USE_PYTORCH=1 with Debian's python3-torch, the discovery path the checkout's own build
// does not take). In that project `npx sjd --help`, `npx sjd info` and `npx sjd solve` run;
// `import 'sjd'` loads the library and no HTTP server, `sjd/serve` the server; every ```ts block
// of README.md and docs/library.md type-checks against the installed types and runs; and
// docs/library.md's task module trains, samples and serves through the installed `sjd`. A file or
// dependency missing from the package fails here. Slow (the install compiles the addon, 2-3
// minutes); SJD_TEST_FAST=1 skips it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import {
  docExamples,
  exerciseTaskModule,
  taskModuleExample,
  writeExamples,
} from './doc-examples.js';
import { tempDir } from './tmp.js';
import { packInto } from './user-project.js';

const skip = process.env.SJD_TEST_FAST === '1' ? 'SJD_TEST_FAST' : false;
const project = tempDir('sjd-user-project-');
const EASY = '530070000600195000098000060800060003400803001700020006060000280000419005000080079';

const npx = (...args: string[]) =>
  spawnSync('npx', ['--no-install', ...args], {
    cwd: project,
    encoding: 'utf8',
    env: { ...process.env, SJD_THREADS: '1' },
  });

before(
  () => {
    if (skip) return;
    const tarball = packInto(project);
    const install = spawnSync(
      'npm',
      ['install', tarball, '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'],
      {
        cwd: project,
        encoding: 'utf8',
        env: { ...process.env, LIBTORCH_USE_PYTORCH: '1', SJD_PYTHON: '/usr/bin/python3' },
      },
    );
    assert.equal(install.status, 0, `npm install of the tarball failed:\n${install.stderr}`);
    assert.doesNotMatch(install.stderr, /EBADENGINE/, 'a dependency refuses this Node');
  },
  { timeout: 20 * 60_000 },
);

test('npx sjd --help, and info names the libtorch the install found', { skip }, () => {
  const help = npx('sjd', '--help');
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^Usage: sjd /);
  const info = npx('sjd', 'info');
  assert.equal(info.status, 0, info.stderr);
  assert.match(
    info.stdout,
    /addon built against libtorch 1\.13 found by LIBTORCH_USE_PYTORCH=1 \(torch \S+ of \/usr\/bin\/python3\)/,
  );
  assert.match(info.stdout, /^BLAS: /m);
});

test('npx sjd solve solves a board with the shipped model', { skip }, () => {
  const r = npx('sjd', 'solve', EASY);
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    /^534678912672195348198342567859761423426853791713924856961537284287419635345286179$/m,
  );
});

test("import 'sjd' and 'sjd/serve' load no HTTP server: it loads when a server is built", {
  skip,
}, () => {
  const script = `
import { createRequire } from 'node:module';
const lib = await import('sjd');
const cache = () => Object.keys(createRequire(import.meta.url).cache);
const loaded = () => cache().some((k) => k.includes('/node_modules/fastify/'));
const before = loaded();
const server = await import('sjd/serve');
const after = loaded();
await import('fastify'); // what the cache shows once it is loaded
console.log(JSON.stringify({ lib: typeof lib.sudoku.solveSudoku, before, serve: typeof server.startServer, after, control: loaded() }));
`;
  writeFileSync(join(project, 'entries.mjs'), script);
  const r = spawnSync(process.execPath, ['entries.mjs'], { cwd: project, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    lib: 'function',
    before: false,
    serve: 'function',
    after: false,
    control: true,
  });
});

test('every library example of the docs type-checks and runs against the package', {
  skip,
}, async (t) => {
  const examples = docExamples();
  assert.ok(examples.length >= 7, `${examples.length} examples`);
  for (const [e, file] of writeExamples(project, examples)) {
    await t.test(e.where, () => {
      const r = spawnSync(process.execPath, [file], {
        cwd: project,
        encoding: 'utf8',
        env: { ...process.env, SJD_THREADS: '1' },
      });
      assert.equal(r.status, 0, `${e.where} failed:\n${r.stderr}`);
    });
  }
});

test("docs/library.md's task module trains, samples and serves through the installed sjd", {
  skip,
}, async () => {
  const example = taskModuleExample();
  const module = writeExamples(project, [example]).get(example)!;
  // the command npm linked for the package (what npx runs), started directly so that no launcher
  // process stands between the test and the server it stops
  await exerciseTaskModule([join(project, 'node_modules', '.bin', 'sjd')], project, module);
});
