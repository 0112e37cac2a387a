// The package where libtorch is not found: `npm pack`'s tarball installed with --omit=dev into an
// empty project with LIBTORCH naming a folder that holds none, so the install's addon build
// cannot find it. The install still succeeds (the build's failure is a warning with the fix),
// `npx sjd info` says the TypeScript backend runs and why, and `npx sjd demo` solves the
// puzzles it generates on it with the shipped model; `npx sjd export-web` writes the static site
// with the shipped models. Slow (an install and a demo on the TypeScript
// backend, a minute or two); SJD_TEST_FAST=1 skips it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from './tmp.js';
import { packInto } from './user-project.js';

const skip = process.env.SJD_TEST_FAST === '1' ? 'SJD_TEST_FAST' : false;

test('without libtorch the tarball installs, and npx sjd demo solves its puzzles on the TypeScript backend', {
  skip,
  timeout: 20 * 60_000,
}, () => {
  const project = tempDir('sjd-user-project-js-');
  const tarball = packInto(project);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LIBTORCH: join(project, 'no-libtorch-here'),
    SJD_THREADS: '1',
  };
  delete env.SJD_REQUIRE_ADDON; // CI's: an install without the addon is what is tested here
  delete env.SJD_BACKEND;
  const install = spawnSync(
    'npm',
    [
      'install',
      tarball,
      '--omit=dev',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--foreground-scripts',
    ],
    { cwd: project, encoding: 'utf8', env },
  );
  assert.equal(install.status, 0, `npm install of the tarball failed:\n${install.stderr}`);
  assert.match(
    install.stdout + install.stderr,
    /sjd: warning: no libtorch addon \(.*\)\. sjd runs on its TypeScript backend.*run 'npm rebuild sjd'/,
  );
  const npx = (...args: string[]) =>
    spawnSync('npx', ['--no-install', ...args], { cwd: project, encoding: 'utf8', env });
  const info = npx('sjd', 'info');
  assert.equal(info.status, 0, info.stderr);
  assert.match(info.stdout, /^backend: TypeScript backend \(the libtorch addon did not load: /);
  // the demo's puzzles solved with the shipped model (25 of them: the path of its default 100)
  const demo = npx('sjd', 'demo', '--count', '25');
  assert.equal(demo.status, 0, demo.stderr);
  assert.match(demo.stdout, /^sjd demo sudoku \(TypeScript backend, 1 threads\)/);
  assert.match(demo.stdout, /^solved 25\/25 boards \(100\.0%\)/m);
  // the static site, from the installed package: its script and the three shipped models
  const site = npx('sjd', 'export-web', 'site');
  assert.equal(site.status, 0, site.stderr);
  for (const task of ['sudoku', 'text', 'image'])
    assert.match(site.stdout, new RegExp(`^${task}: .*node_modules/sjd/models/${task}$`, 'm'));
  assert.ok(existsSync(join(project, 'site', 'sjd-site.js')));
});
