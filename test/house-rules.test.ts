// House rules of the source that a scan can check (docs/design.md §6): the command line is thin
// and shaped like the tasks. No function under src/cli/ is over 60 lines (a command's
// registration and its action are named functions, not one long chain); no file under src/cli/,
// and no task's spec, flags or common file, is over 300 lines; each folder of src/cli/ is a
// task's (src/tasks/<task>/), and the commands every task shares (`sjd train TASK`, `sjd compare
// TASK`) name no task: a task's flags are data its spec declares.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
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

/** `file:line: N lines` for every function-like node of `file` longer than `max` lines. */
export function longFunctions(sf: ts.SourceFile, max: number): string[] {
  const found: string[] = [];
  const line = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line;
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) && 'body' in n && n.body) {
      const lines = line(n.getEnd()) - line(n.getStart(sf)) + 1;
      if (lines > max)
        found.push(`${relative(root, sf.fileName)}:${line(n.getStart(sf)) + 1}: ${lines} lines`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

test('no function under src/cli is over 60 lines', () => {
  const long = sources(cli).flatMap((f) => longFunctions(parse(f), MAX_FUNCTION_LINES));
  assert.deepEqual(long, []);
});

test('no file under src/cli, and no task spec, flags or common file, is over 300 lines', () => {
  const tasks = join(root, 'src/tasks');
  const specs = readdirSync(tasks).flatMap((t) =>
    ['spec.ts', 'flags.ts', 'task-spec.ts', 'flag-values.ts']
      .map((f) => join(tasks, t, f))
      .filter((f) => existsSync(f)),
  );
  const long = [...sources(cli), ...specs].flatMap((f) => {
    const n = readFileSync(f, 'utf8').trimEnd().split('\n').length;
    return n > MAX_FILE_LINES ? [`${relative(root, f)}: ${n} lines`] : [];
  });
  assert.ok(specs.length >= 4, `the specs were found: ${specs}`);
  assert.deepEqual(long, []);
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
