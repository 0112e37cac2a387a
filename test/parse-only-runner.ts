// Many `sjd` command lines in parse-only mode (SJD_PARSE_ONLY=1, src/cli/program.ts) in one
// process, for test/doc-commands.test.ts: each line is parsed by a fresh program as bin/sjd.js
// builds it, and its exit status and output are recorded as that process would give them. One
// Node start-up loads the whole library (about 0.8 s); the docs have some 200 lines.
//   node dist/test/parse-only-runner.js LINES.json OUT.json   (LINES: string[][], OUT: Ran[])
// Lines that load a task module (--task-module) are not for it: a module registers its task for
// every later line. Without arguments (the test runner loads every file here) it does nothing.
import { readFileSync, writeFileSync } from 'node:fs';

/** What one parse gave: the exit status and output its own process would have. */
export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** process.exit, thrown out of the parse instead of ending the process. */
class Exit {
  constructor(readonly code: number) {}
}

async function parseAll(lines: string[][]): Promise<Ran[]> {
  process.env.SJD_PARSE_ONLY = '1';
  const { buildProgram } = await import('../src/cli/program.js');
  const out: Ran[] = [];
  let o: Ran = { status: 0, stdout: '', stderr: '' };
  const exit = process.exit;
  const [write, writeErr] = [process.stdout.write, process.stderr.write];
  process.exit = ((code?: number) => {
    throw new Exit(code ?? 0);
  }) as typeof process.exit;
  process.stdout.write = ((s: string) => {
    o.stdout += s;
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((s: string) => {
    o.stderr += s;
    return true;
  }) as typeof process.stderr.write;
  try {
    for (const args of lines) {
      o = { status: 0, stdout: '', stderr: '' };
      try {
        await buildProgram().parseAsync(['node', 'sjd', ...args]);
      } catch (e) {
        if (e instanceof Exit) o.status = e.code;
        else {
          // as src/cli/main.ts reports what no command caught
          o.stderr += `sjd: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`;
          o.status = 1;
        }
      }
      out.push(o);
    }
  } finally {
    process.exit = exit;
    process.stdout.write = write;
    process.stderr.write = writeErr;
  }
  return out;
}

const [linesFile, outFile] = process.argv.slice(2);
if (linesFile && outFile) {
  const lines = JSON.parse(readFileSync(linesFile, 'utf8')) as string[][];
  writeFileSync(outFile, JSON.stringify(await parseAll(lines)));
}
