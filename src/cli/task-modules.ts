// `sjd --task-module FILE ...`: a task of the user's own joins the shipped commands. The module is
// imported before the commands are built (train, sample, compare and serve make a subcommand or a
// route for every registered task, tasks/registry.ts), so the command line is scanned for the
// flag first; commander then sees it as an ordinary, repeatable option. A module registers its
// task in one of two ways:
//   - it calls `registerTask(spec)` from the `sjd` package this command runs from (an `import`
//     of 'sjd' in a project where sjd is installed resolves to it);
//   - its default export is a TaskSpec, an array of them, or a function that is given the `sjd`
//     library and registers or returns them (for a file that cannot resolve 'sjd' itself).
// A module that registers nothing is refused with the reason: most often it imported another copy
// of sjd, whose registry this command does not read; one that has not loaded within 10 s (a
// promise that never settles) is refused too.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as sjd from '../index.js';

export const TASK_MODULE_FLAG = '--task-module';

/** The --task-module files named in argv (`--task-module F` or `--task-module=F`), in order. */
export function taskModuleArgs(argv: string[]): string[] {
  const out: string[] = [];
  argv.forEach((a, i) => {
    if (a === TASK_MODULE_FLAG && i + 1 < argv.length) out.push(argv[i + 1]!);
    else if (a.startsWith(`${TASK_MODULE_FLAG}=`)) out.push(a.slice(TASK_MODULE_FLAG.length + 1));
  });
  return out;
}

const isSpec = (x: unknown): x is sjd.TaskSpec =>
  typeof x === 'object' && x !== null && typeof (x as { name?: unknown }).name === 'string';

/** Registers what a module's default export gives: a spec, specs, or a function of the library. */
async function registerDefault(file: string, value: unknown): Promise<void> {
  const given = typeof value === 'function' ? await value(sjd) : value;
  if (given === undefined) return;
  const specs = Array.isArray(given) ? given : [given];
  for (const s of specs) {
    if (!isSpec(s))
      throw new Error(`${file}: its default export gives something that is not a TaskSpec`);
    if (!sjd.taskSpecs().includes(s)) sjd.registerTask(s);
  }
}

/** How long a module may take to load and register (a promise that never settles ends the wait). */
export const TASK_MODULE_TIMEOUT_MS = 10_000;

/** `work`, or a refusal once TASK_MODULE_TIMEOUT_MS have passed (the timer keeps Node waiting). */
async function settled(work: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `did not finish loading within ${TASK_MODULE_TIMEOUT_MS / 1000} s (does its default export return a promise that never settles?)`,
          ),
        ),
      TASK_MODULE_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** Imports each task module and checks that it registered a task; returns the new task names. */
export async function loadTaskModules(files: string[]): Promise<string[]> {
  const added: string[] = [];
  for (const file of files) {
    const path = resolve(file);
    if (!existsSync(path)) throw new Error(`${TASK_MODULE_FLAG} ${file}: no such file`);
    if (statSync(path).isDirectory())
      throw new Error(`${TASK_MODULE_FLAG} ${file}: is a folder, not a module`);
    const before = new Set(sjd.taskSpecs().map((s) => s.name));
    try {
      await settled(
        (async () => {
          const mod: { default?: unknown } = await import(pathToFileURL(path).href);
          await registerDefault(file, mod.default);
        })(),
      );
    } catch (e) {
      throw new Error(`${TASK_MODULE_FLAG} ${file}: ${(e as Error).message.split('\n')[0]}`);
    }
    const names = sjd
      .taskSpecs()
      .map((s) => s.name)
      .filter((n) => !before.has(n));
    if (names.length === 0) {
      throw new Error(
        `${TASK_MODULE_FLAG} ${file}: registered no task (call registerTask from the 'sjd' this command runs from, ${sjd.util.PACKAGE_ROOT}, or export default a TaskSpec or a function (sjd) => TaskSpec)`,
      );
    }
    for (const name of names) added.push(name);
  }
  return added;
}
