// House rules of the source that a scan can check (docs/design.md §6). No function in src/ is
// over 60 lines and no file over 300, but for those named below with the reason each is one
// (a name that no longer needs its exception must go); the command line
// is thin and shaped like the tasks: each folder of src/cli/ is a task's (src/tasks/<task>/), and
// the commands every task shares (`sjd train TASK`, `sjd compare TASK`) name no task: a task's
// flags are data its spec declares. The import graph: nothing below src/lab/ imports it (only the
// command line does), and no two files import each other.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { TASK_SPECS } from '../src/tasks/registry.js';

const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'src/cli');

const MAX_FUNCTION_LINES = 60;
const MAX_FILE_LINES = 300;

/** The .ts files under dir, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const f = join(dir, e);
    if (statSync(f).isDirectory()) return sources(f);
    return f.endsWith('.ts') ? [f] : [];
  });
}

const parse = (file: string) =>
  ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);

/** Every function-like node of `file` longer than `max` lines: where, its name, its length. */
function longOnes(sf: ts.SourceFile, max: number) {
  const found: { file: string; line: number; name: string; lines: number }[] = [];
  const line = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line;
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) && 'body' in n && n.body) {
      const lines = line(n.getEnd()) - line(n.getStart(sf)) + 1;
      const at = line(n.getStart(sf)) + 1;
      const name = n.name?.getText(sf) ?? `(line ${at})`;
      if (lines > max) found.push({ file: relative(root, sf.fileName), line: at, name, lines });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/** `file:line: N lines` for every function-like node of `file` longer than `max` lines. */
export const longFunctions = (sf: ts.SourceFile, max: number): string[] =>
  longOnes(sf, max).map((f) => `${f.file}:${f.line}: ${f.lines} lines`);

/** `file name` of every function-like node of `file` longer than `max` lines. */
const longNamed = (sf: ts.SourceFile, max: number): string[] =>
  longOnes(sf, max).map((f) => `${f.file} ${f.name}`);

/**
 * The functions over 60 lines, and the files over 300, that stay so, each with why (none now: a
 * name added here needs its reason).
 */
const LONG_FUNCTIONS: Record<string, string> = {};
const LONG_FILES: Record<string, string> = {};

const fileLines = (f: string) => readFileSync(f, 'utf8').trimEnd().split('\n').length;

test('no function in src/ is over 60 lines but those named, each with its reason', () => {
  const long = sources(join(root, 'src')).flatMap((f) => longNamed(parse(f), MAX_FUNCTION_LINES));
  assert.deepEqual(long.sort(), Object.keys(LONG_FUNCTIONS).sort());
  // the command line has none
  assert.deepEqual(
    sources(cli).flatMap((f) => longFunctions(parse(f), MAX_FUNCTION_LINES)),
    [],
  );
});

test('no file in src/ is over 300 lines but those named, each with its reason', () => {
  const long = sources(join(root, 'src'))
    .filter((f) => fileLines(f) > MAX_FILE_LINES)
    .map((f) => relative(root, f));
  assert.deepEqual(long.sort(), Object.keys(LONG_FILES).sort());
  const tasks = join(root, 'src/tasks');
  const specs = readdirSync(tasks).flatMap((t) =>
    ['spec.ts', 'flags.ts', 'task-spec.ts', 'flag-values.ts']
      .map((f) => join(tasks, t, f))
      .filter((f) => existsSync(f)),
  );
  assert.ok(specs.length >= 4, `the specs were found: ${specs}`);
  for (const f of [...sources(cli), ...specs]) assert.ok(fileLines(f) <= MAX_FILE_LINES, f);
});

test("src/cli's folders are tasks', and `sjd train` and `sjd compare` name no task", () => {
  const folders = readdirSync(cli).filter((e) => statSync(join(cli, e)).isDirectory());
  for (const f of folders)
    assert.ok(existsSync(join(root, 'src/tasks', f, 'spec.ts')), `src/cli/${f} is no task's`);
  const names = new Set(Object.keys(TASK_SPECS));
  for (const file of ['train.ts', 'compare.ts']) {
    const sf = parse(join(cli, file));
    const named: string[] = [];
    const visit = (n: ts.Node): void => {
      if (ts.isStringLiteralLike(n) && names.has(n.text)) named.push(n.text);
      ts.forEachChild(n, visit);
    };
    visit(sf);
    assert.deepEqual(named, [], `src/cli/${file} names a task`);
  }
});

test('the function scan finds a long function', () => {
  const body = Array.from({ length: 61 }, (_, i) => `  const a${i} = ${i};`).join('\n');
  const sf = ts.createSourceFile(
    join(root, 'x.ts'),
    `function f() {\n${body}\n}\nconst g = () => 1;\n`,
    ts.ScriptTarget.Latest,
    true,
  );
  assert.deepEqual(longFunctions(sf, MAX_FUNCTION_LINES), ['x.ts:1: 63 lines']);
});

/** Every relative module `file` imports (static, re-exported or dynamic), as paths from root. */
function importsOf(sf: ts.SourceFile): string[] {
  const found: string[] = [];
  const add = (spec: ts.Node | undefined) => {
    if (spec && ts.isStringLiteralLike(spec) && spec.text.startsWith('.'))
      found.push(relative(root, resolve(dirname(sf.fileName), spec.text.replace(/\.js$/, '.ts'))));
  };
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) add(n.moduleSpecifier);
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword)
      add(n.arguments[0]);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/** The pairs of files of `graph` (file -> what it imports) that import each other. */
export function mutualImports(graph: Map<string, string[]>): string[] {
  const pairs: string[] = [];
  for (const [a, deps] of graph)
    for (const b of deps) if (a < b && graph.get(b)?.includes(a)) pairs.push(`${a} <-> ${b}`);
  return pairs;
}

test('the import graph: only the command line imports src/lab/, and no two files import each other', () => {
  const graph = new Map(
    sources(join(root, 'src')).map((f) => [relative(root, f), importsOf(parse(f))]),
  );
  const up = [...graph].flatMap(([f, deps]) =>
    /^src\/(lab|cli)\//.test(f)
      ? []
      : deps.filter((d) => d.startsWith('src/lab/')).map((d) => `${f} -> ${d}`),
  );
  assert.deepEqual(up, []);
  assert.ok(
    graph.get('src/cli/compare.ts')?.includes('src/lab/index.ts'),
    'the scan reads imports',
  );
  assert.deepEqual(mutualImports(graph), []);
  // the scan finds a pair, type-only imports and re-exports included
  const pair = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['a.ts', 'c.ts']],
    ['c.ts', []],
  ]);
  assert.deepEqual(mutualImports(pair), ['a.ts <-> b.ts']);
  const sf = ts.createSourceFile(
    join(root, 'src/x/a.ts'),
    "import type { T } from './b.js';\nexport * from '../y/c.js';\nconst m = import('./d.js');\nimport 'node:fs';\n",
    ts.ScriptTarget.Latest,
    true,
  );
  assert.deepEqual(importsOf(sf), ['src/x/b.ts', 'src/y/c.ts', 'src/x/d.ts']);
});
