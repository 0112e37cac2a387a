// Output paths are checked before any work (a long run must not fail at its last line) and
// never destroy a user's data: a command refuses a non-empty folder it did not write itself
// (recognised by its own marker file) or an existing file, unless --force; replacing then goes
// through util/atomic.ts (write beside, rename), never delete-then-write. The output paths of one
// command must name different files (else one output would replace the other).
import {
  accessSync,
  constants,
  existsSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fsReason, tempBeside, writeFileAtomic } from './atomic.js';

/** A kind of folder sjd writes: its marker file and every entry it may hold. */
export interface FolderKind {
  name: string; // e.g. 'model folder'
  isOurs(dir: string): boolean;
  entries: readonly string[];
}

/** Fails at once when nothing can be written at `path` (a missing or read-only parent). */
export function checkWritable(path: string): void {
  const abs = resolve(path);
  let p = dirname(abs);
  while (!existsSync(p)) p = dirname(p);
  if (!statSync(p).isDirectory()) throw new Error(`cannot write ${path}: ${p} is not a folder`);
  try {
    accessSync(p, constants.W_OK);
  } catch {
    throw new Error(`cannot write ${path}: ${p} is not writable`);
  }
  // Probe the folder (some file systems, e.g. /proc, pass access() and refuse new files).
  const probe = tempBeside(join(p, 'probe'));
  try {
    writeFileAtomic(probe, '');
  } catch {
    throw new Error(`cannot write ${path}: ${p} does not accept new files`);
  } finally {
    rmSync(probe, { force: true });
  }
}

/**
 * An output folder may be written when it does not exist, is empty, or is a folder of this kind
 * that holds only what sjd writes there; anything else needs `force`.
 */
export function claimOutDir(dir: string, kind: FolderKind, force: boolean): void {
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) {
      if (!force) throw new Error(`${dir} is a file, not a folder; choose another --out`);
    } else {
      let entries: string[];
      try {
        entries = readdirSync(dir);
      } catch (e) {
        throw new Error(`cannot read ${dir}: ${fsReason(e)}`);
      }
      const ours = kind.isOurs(dir) && entries.every((e) => kind.entries.includes(e));
      if (entries.length > 0 && !ours && !force)
        throw new Error(
          `${dir} is not empty and is not a ${kind.name} written by sjd; choose another --out or pass --force to replace it`,
        );
    }
  }
  checkWritable(dir);
}

/** An output file may be written when it does not exist (or with `force`), beside a writable parent. */
export function claimOutFile(path: string, force: boolean): void {
  if (existsSync(path)) {
    if (statSync(path).isDirectory()) throw new Error(`${path} is a folder, not a file`);
    if (!force)
      throw new Error(`${path} exists; choose another --out or pass --force to replace it`);
  }
  checkWritable(path);
}

/** True when `inner` is `outer` or lies inside it. */
export function within(inner: string, outer: string): boolean {
  const r = relative(resolve(outer), resolve(inner));
  return r === '' || (!r.startsWith('..') && !r.startsWith('/'));
}

/**
 * What file `path` names: an existing one by its device and inode (a hard link or a symbolic
 * link is the file it reaches), a new one by its real parent folder and its name.
 */
function fileIdentity(path: string): string {
  const abs = resolve(path);
  try {
    const st = statSync(abs);
    return `inode ${st.dev}:${st.ino}`;
  } catch {
    const rest = [basename(abs)];
    let dir = dirname(abs);
    while (!existsSync(dir)) {
      rest.unshift(basename(dir));
      dir = dirname(dir);
    }
    return join(realpathSync(dir), ...rest);
  }
}

/**
 * Refuses a command whose output paths (by flag; unset ones skipped) name the same file, however
 * spelled (`g.png` and `./g.png`, a link and its target): checked before any work, as the
 * claims above.
 */
export function distinctOutputs(outputs: Record<string, string | undefined>): void {
  const seen = new Map<string, string>(); // file -> the first flag naming it
  for (const [flag, path] of Object.entries(outputs)) {
    if (path === undefined) continue;
    const id = fileIdentity(path);
    const first = seen.get(id);
    if (first !== undefined)
      throw new Error(
        `${first} and ${flag} name the same file (${path}); give each output its own path`,
      );
    seen.set(id, flag);
  }
}
