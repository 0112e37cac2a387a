#!/usr/bin/env node
// Builds sjd's JavaScript: dist/ emptied, the library, its tests and benchmarks compiled
// (tsconfig.json), the page's scripts compiled (web/tsconfig.json), the browser bundles made
// (scripts/build-web.mjs), and dist/.built stamped last. `npm run build` runs it.
//
// --if-stale (`npm test`'s pretest) builds only when a source is newer than the stamp: a file or a
// folder (a file added, removed or renamed changes its folder's time) under the inputs below.
// npm ci has just built the checkout; building it again for the test command is a minute of
// nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(root, 'dist', '.built');
// what the build reads; web/dist is its output
const INPUTS = [
  'src',
  'test',
  'bench',
  'web',
  'scripts',
  'wasm',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];
const OUTPUTS = new Set([join(root, 'web', 'dist')]);

/** The newest modification time (ms) of `path` and, for a folder, of everything under it. */
function newest(path) {
  if (OUTPUTS.has(path) || !existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = s.mtimeMs;
  for (const name of readdirSync(path)) t = Math.max(t, newest(join(path, name)));
  return t;
}

const stale = () =>
  !existsSync(STAMP) || INPUTS.some((p) => newest(join(root, p)) > statSync(STAMP).mtimeMs);

if (process.argv.includes('--if-stale') && !stale()) {
  console.log('dist/ is up to date with the sources (scripts/build.mjs --if-stale)');
  process.exit(0);
}

const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const run = (...args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
rmSync(join(root, 'dist'), { recursive: true, force: true });
run(tsc, '-p', 'tsconfig.json');
run(tsc, '-p', join('web', 'tsconfig.json'));
run(join(root, 'scripts', 'build-web.mjs'));
writeFileSync(STAMP, `${new Date().toISOString()}\n`);
