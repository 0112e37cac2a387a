// The package's manifest is true to its files: every bare import of the built library and command
// line (dist/src, bin/) resolves to an entry of `dependencies` (a dev-only one is missing from a
// user's install), `import 'sjd'` reaches no HTTP server (fastify is the `sjd/serve` entry's),
// every source map's sources ship, the LICENSE is the one package.json names, the Node range of
// `engines` admits every production dependency's own, and `os`/`cpu` name this machine. These
// read the checkout; test/package-install.test.ts installs the tarball itself.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import semver from 'semver';

const root = new URL('../..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const deps = new Set(Object.keys(pkg.dependencies));

const jsFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? jsFiles(join(dir, e.name))
      : /\.m?js$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );

/** Every module specifier a file names: static and dynamic imports, re-exports, require(.resolve). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\s[^'"`]*?from\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire(?:\.resolve)?\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const p of patterns) for (const m of text.matchAll(p)) out.push(m[1]!);
  return out;
}

/** The package a bare specifier names ('@scope/name/sub' -> '@scope/name'), or null. */
function packageOf(spec: string): string | null {
  if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:')) return null;
  const parts = spec.split('/');
  const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return builtinModules.includes(name) ? null : name;
}

const shipped = [...jsFiles(join(root, 'dist/src')), ...jsFiles(join(root, 'bin'))];

test('every bare import of dist/src and bin/ is a production dependency', () => {
  assert.ok(shipped.length > 100, `only ${shipped.length} built files: is dist/ built?`);
  const missing: string[] = [];
  for (const f of shipped)
    for (const s of specifiers(f)) {
      const p = packageOf(s);
      if (p !== null && !deps.has(p)) {
        const where = pkg.devDependencies?.[p] ? 'a devDependency' : 'not in package.json';
        missing.push(`${relative(root, f)} imports '${s}' (${where})`);
      }
    }
  assert.deepEqual(missing, []);
});

test("import 'sjd' loads no HTTP server and no lab; 'sjd/serve', 'sjd/lab' and 'sjd/web' are their own entries", () => {
  assert.deepEqual(Object.keys(pkg.exports).sort(), [
    '.',
    './lab',
    './package.json',
    './serve',
    './web',
  ]);
  for (const key of ['.', './lab', './serve', './web']) {
    for (const path of Object.values(pkg.exports[key] as Record<string, string>))
      assert.ok(existsSync(join(root, path)), `${key} -> ${path} is not built`);
  }
  // the static import graph of the library's entry, followed through relative imports
  const seen = new Set<string>();
  const bare = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const s of specifiers(file)) {
      if (s.startsWith('.')) walk(resolve(dirname(file), s));
      else if (packageOf(s)) bare.add(packageOf(s)!);
    }
  };
  walk(join(root, pkg.exports['.'].default));
  assert.ok(seen.size > 100, `the entry reaches ${seen.size} files`);
  assert.ok(
    ![...seen].some((f) => f.includes('/dist/src/serve/')),
    'the library imports src/serve',
  );
  assert.ok(!seen.has(join(root, 'dist/src/lab/index.js')), 'the library imports src/lab');
  assert.ok(seen.has(join(root, 'dist/src/train/index.js')), 'the walk follows the entry');
  assert.deepEqual(
    [...bare].filter((p) => /fastify/.test(p)),
    [],
  );
});

test('source maps ship with their sources', () => {
  const maps = readdirSync(join(root, 'dist/src'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.js.map'));
  assert.ok(maps.length > 0);
  const covered = (path: string) =>
    (pkg.files as string[]).some((f) => path === f || path.startsWith(`${f}/`));
  for (const m of maps) {
    const map = JSON.parse(readFileSync(join(root, 'dist/src', m), 'utf8'));
    for (const s of map.sources as string[]) {
      const src = relative(root, resolve(join(root, 'dist/src', dirname(m)), s));
      assert.ok(covered(src), `${m} points at ${src}, which the package does not ship`);
      assert.ok(existsSync(join(root, src)), `${src} is missing`);
    }
  }
});

test('the LICENSE is the license package.json names', () => {
  assert.equal(pkg.license, 'MIT');
  assert.ok((pkg.files as string[]).includes('LICENSE'));
  assert.match(readFileSync(join(root, 'LICENSE'), 'utf8'), /^MIT License\n/);
});

test("engines admits every production dependency's Node range", () => {
  const ours = semver.minVersion(pkg.engines.node)!;
  const refused: string[] = [];
  const visit = (name: string, from: string, seen: Set<string>) => {
    // node's resolution: the nearest node_modules/<name> above `from`
    let dir = from;
    let at: string | null = null;
    for (;;) {
      const c = join(dir, 'node_modules', name, 'package.json');
      if (existsSync(c)) {
        at = c;
        break;
      }
      if (dir === root || dir === dirname(dir)) break;
      dir = dirname(dir);
    }
    if (at === null || seen.has(at)) return;
    seen.add(at);
    const p = JSON.parse(readFileSync(at, 'utf8'));
    const range = p.engines?.node;
    if (range && !semver.satisfies(ours, range))
      refused.push(`${p.name}@${p.version} wants node ${range}`);
    for (const d of Object.keys(p.dependencies ?? {})) visit(d, dirname(at), seen);
  };
  const seen = new Set<string>();
  for (const d of deps) visit(d, root, seen);
  assert.ok(seen.size > 50, `walked ${seen.size} packages`);
  assert.deepEqual(refused, [], `engines.node is ${pkg.engines.node}`);
});

test('os and cpu name the platforms the addon builds on, this one among them', () => {
  assert.deepEqual(pkg.os, ['linux']);
  assert.ok((pkg.cpu as string[]).includes(process.arch), `${process.arch} not in ${pkg.cpu}`);
});
