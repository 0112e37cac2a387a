// Atomic writes (docs/design.md §4, "no half-written file"): every file sjd writes goes to a temporary
// name beside its target and is renamed into place, so a stop at any moment leaves the old file
// or the new one. Folders are built beside their target and renamed in the same way; a folder
// being replaced is moved aside first and removed only once the new one is in place. A temporary
// name carries random bits and is created exclusively (O_CREAT | O_EXCL, which also refuses a
// symlink there), so no one who can write to the folder can aim it at another file beforehand;
// and it is removed however the command ends, a signal or SIGKILL included (reaper.ts).

import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { reapUnlessForgotten } from './reaper.js';

/** The one-line reason of a file-system error (`EACCES`, `ENOENT`, ...). */
export function fsReason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'ENOENT') return 'no such folder';
  if (err?.code === 'EACCES' || err?.code === 'EPERM') return 'permission denied';
  if (err?.code === 'EISDIR') return 'is a folder';
  if (err?.code === 'ENOTDIR') return 'a parent is not a folder';
  if (err?.code === 'ENOSPC') return 'no space left on the device';
  if (err?.code === 'EROFS') return 'read-only file system';
  return err?.code ?? (e instanceof Error ? e.message.split('\n')[0]! : String(e));
}

/**
 * A new temporary path beside `path` (same folder, so the rename is atomic): this process's id
 * and 64 random bits, a name no one can plant in advance.
 */
export function tempBeside(path: string): string {
  const nonce = randomBytes(8).toString('hex');
  return join(dirname(path), `.${basename(path)}.${process.pid}.${nonce}.tmp`);
}

/** A file descriptor for writing a new file at `path`; fails where anything (a symlink too) is there. */
export const openNew = (path: string): number => openSync(path, 'wx');

/**
 * write(2) may write less than asked: loops until all of `data` is written, at the file's
 * position, or at `at` onwards where given.
 */
export function writeAll(fd: number, data: Uint8Array, at?: number): void {
  for (let done = 0; done < data.length; )
    done += writeSync(fd, data, done, data.length - done, at === undefined ? null : at + done);
}

/**
 * Creates `dir` and its missing parents one level at a time. (Node's recursive mkdir never
 * returns on some paths, e.g. under /proc; this fails at once with a one-line error.)
 */
export function makeDir(dir: string): void {
  const abs = resolve(dir);
  const missing: string[] = [];
  let p = abs;
  while (!existsSync(p)) {
    missing.push(p);
    const up = dirname(p);
    if (up === p) break;
    p = up;
  }
  if (existsSync(p) && !statSync(p).isDirectory())
    throw new Error(`cannot create ${dir}: ${p} is not a folder`);
  for (const m of missing.reverse()) {
    try {
      mkdirSync(m);
    } catch (e) {
      throw new Error(`cannot create ${dir}: ${fsReason(e)}`);
    }
  }
}

/**
 * Writes `data` (or its pieces, in order) to `path` through a temporary file beside it, its
 * missing folders made first; nothing is left behind on failure.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array | Uint8Array[]): void {
  if (existsSync(path) && statSync(path).isDirectory())
    throw new Error(`cannot write ${path}: it is a folder`);
  makeDir(dirname(path)); // an output's folders are made as needed (`--out runs/grid.png`)
  const tmp = tempBeside(path);
  const forget = reapUnlessForgotten(tmp);
  try {
    if (Array.isArray(data)) writePieces(tmp, data);
    else writeFileSync(tmp, data, { flag: 'wx' });
    renameSync(tmp, path);
  } catch (e) {
    // EEXIST: something was already there, not this process's to remove
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') rmSync(tmp, { force: true });
    throw new Error(`cannot write ${path}: ${fsReason(e)}`);
  } finally {
    forget();
  }
}

/** The pieces written one after another into a new file at `path`, never joined in memory. */
function writePieces(path: string, pieces: Uint8Array[]): void {
  const fd = openNew(path);
  try {
    for (const piece of pieces)
      for (let at = 0; at < piece.byteLength; )
        at += writeSync(fd, piece, at, piece.byteLength - at);
  } finally {
    closeSync(fd);
  }
}

/** JSON (two-space indented, final newline) written atomically. */
export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Where replaceDirAtomic keeps the folder it replaces until the new one is in place: a name of
 * this process's own (like tempBeside's), so no cleanup here can reach a folder it did not make.
 */
export const asideOf = (dir: string, pid = process.pid): string =>
  join(dirname(dir), `.${basename(dir)}.${pid}.old`);

/** Folders set aside by replaceDirAtomic for `dir` (by any process, e.g. one stopped mid-swap). */
export function asidesOf(dir: string): string[] {
  const parent = dirname(dir);
  if (!existsSync(parent)) return [];
  const head = `.${basename(dir)}.`;
  const ours = (e: string) => e.startsWith(head) && /^\d+\.old$/.test(e.slice(head.length));
  return readdirSync(parent)
    .filter(ours)
    .map((e) => join(parent, e));
}

/**
 * Builds a folder with `fill` in a temporary folder beside `dir`, then puts it in place of `dir`
 * (an existing `dir` is moved aside and removed only after the rename). On any failure the
 * temporary folder is removed and `dir` is as it was.
 */
export function replaceDirAtomic<T>(dir: string, fill: (tmp: string) => T): T {
  const tmp = tempBeside(dir);
  const old = asideOf(dir);
  makeDir(dirname(resolve(dir)));
  const forget = reapUnlessForgotten(tmp);
  try {
    mkdirSync(tmp); // fails where anything, a symlink too, is there: not this process's to remove
  } catch (e) {
    forget();
    throw e;
  }
  try {
    const r = fill(tmp);
    if (existsSync(dir)) renameSync(dir, old);
    renameSync(tmp, dir);
    rmSync(old, { recursive: true, force: true });
    return r;
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    if (existsSync(old) && !existsSync(dir)) renameSync(old, dir);
    throw writeFailure(dir, e);
  } finally {
    forget();
  }
}

/**
 * A write that failed inside a folder being built (a full disk: `ENOSPC ... write`, which names
 * no path) as one line naming the folder; any other error as it is.
 */
function writeFailure(dir: string, e: unknown): unknown {
  const err = e as NodeJS.ErrnoException;
  const writing = err?.syscall === 'write' || err?.code === 'ENOSPC' || err?.code === 'EDQUOT';
  return writing ? new Error(`cannot write ${dir}: ${fsReason(e)}`) : e;
}
