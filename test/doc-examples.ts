// The library examples of the docs as programs, run as written: every ```js block of README.md
// and docs/library.md, written into a project folder as an .mjs file, type-checked (checkJs, its
// JSDoc types too) against the `sjd` that folder resolves (an installed package, or a link to
// this checkout) by this checkout's TypeScript, and run there by node. Also the task module of
// docs/library.md ("A task of your own", the block that opens with `// my-task.mjs`) driven
// through an `sjd` command: trained, sampled and served. Shared by test/package-install.test.ts (the packed tarball) and
// test/task-module.test.ts (this checkout). Importing this file does nothing.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;

export interface DocExample {
  name: string; // file name stem: <doc>-<line>
  where: string; // doc:line, for messages
  code: string;
}

/** The ```js blocks of README.md and docs/library.md. */
export function docExamples(): DocExample[] {
  const out: DocExample[] = [];
  for (const doc of ['README.md', 'docs/library.md']) {
    const lines = readFileSync(join(root, doc), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (lines[i] !== '```js') continue;
      const end = lines.indexOf('```', i + 1);
      const stem = doc
        .replace(/^docs\//, '')
        .replace(/\.md$/, '')
        .toLowerCase();
      out.push({
        name: `${stem}-${i + 1}`,
        where: `${doc}:${i + 1}`,
        code: `${lines.slice(i + 1, end).join('\n')}\n`,
      });
      i = end;
    }
  }
  return out;
}

/** The task module's block ("A task of your own"). */
export const taskModuleExample = (): DocExample => {
  const e = docExamples().find((x) => x.code.startsWith('// my-task.mjs'));
  assert.ok(e, 'docs/library.md has no block opening with // my-task.mjs');
  return e;
};

/**
 * Writes the examples into `dir` as .mjs files, as the docs print them, and type-checks them
 * (checkJs, strict); throws with tsc's report when one does not type-check. Returns each path.
 */
export function writeExamples(dir: string, examples: DocExample[]): Map<DocExample, string> {
  for (const e of examples) writeFileSync(join(dir, `${e.name}.mjs`), e.code);
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      allowJs: true,
      checkJs: true,
      noEmit: true,
      strict: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(root, 'node_modules/@types')],
    },
    files: examples.map((e) => `${e.name}.mjs`),
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  const tsc = spawnSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir],
    { encoding: 'utf8' },
  );
  assert.equal(tsc.status, 0, `the docs' examples do not type-check:\n${tsc.stdout}${tsc.stderr}`);
  return new Map(examples.map((e) => [e, join(dir, `${e.name}.mjs`)]));
}

/**
 * The task module trained, sampled and served through `sjd` (argv: how to run the command, e.g.
 * ['npx', 'sjd'] in an installed project), in `dir`, with the compiled module at `module`.
 */
export async function exerciseTaskModule(argv: string[], dir: string, module: string) {
  const sjd = (...args: string[]) =>
    execFileSync(argv[0]!, [...argv.slice(1), '--task-module', module, ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, SJD_THREADS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  sjd('train', 'repeat', '--out', 'runs/repeat', '--size', 'tiny');
  const rows = JSON.parse(sjd('sample', 'repeat', '--model', 'runs/repeat', '-n', '64'))
    .rows as number[][];
  assert.equal(rows.length, 64);
  const repeats = rows.filter((r) => r.every((v) => v === r[0])).length / rows.length;
  assert.ok(repeats >= 3 / 4, `a trained model's samples are repeats: ${repeats}`);

  const child = spawn(
    argv[0]!,
    [...argv.slice(1), '--task-module', module, 'serve', '--port', '0', '--models', 'runs'],
    // its own process group, so that a launcher in argv (npx) cannot leave the server behind
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  try {
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c) => {
        out += c;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`sjd serve exited (${code})`)));
    });
    const info = await (await fetch(`${url}api/models`)).json();
    assert.equal(info.tasks.repeat.available, true);
    const res = await fetch(`${url}api/repeat/sample`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ n: 4, seed: 3 }),
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.rows.length, 4);
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exit = once(child, 'exit');
      process.kill(-child.pid!, 'SIGTERM');
      await exit;
    }
    child.stdout.destroy();
    child.stderr.destroy();
  }
}
