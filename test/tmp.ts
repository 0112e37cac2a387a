// Temporary folders for tests: each one made by mkdtempSync under os.tmpdir() and removed, with
// everything in it, by an `after` hook of the context that asked for it: made at a file's top
// level, it is removed when the file's tests are done; made inside a test, when that test ends
// (passed or failed). Importing this file does nothing (the runner also loads it as a test file).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

/** A fresh empty folder under os.tmpdir() named `${prefix}XXXXXX`, removed after its test or file. */
export function tempDir(prefix = 'sjd-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A claim's setting in `dir`: a source file `src.txt` holding `text`, and a folder of the user's
 * `out` holding one file, `notes.txt` ('mine'), that a command must not touch unless forced.
 */
export function sourceAndUserFolder(dir: string, text: string): { src: string; out: string } {
  const src = join(dir, 'src.txt');
  writeFileSync(src, text);
  const out = join(dir, 'out');
  mkdirSync(out);
  writeFileSync(join(out, 'notes.txt'), 'mine');
  return { src, out };
}
