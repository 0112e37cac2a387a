// Output paths are checked before any work (a long run must not fail at its last line) and
// never destroy a user's data: a command refuses a non-empty folder it did not write itself
// (recognised by its own marker file) or an existing file it did not write itself (recognised
// by its own content: a comparison's report by its reproduce line, a frontier by its fields),
// unless --force; replacing then goes through util/atomic.ts (write beside, rename), never
// delete-then-write. The output paths of one command must name different files (else one output
// would replace the other).
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fsReason, openNew, tempBeside } from './atomic.js';
import { PACKAGE_ROOT } from './package-root.js';
import { reapUnlessForgotten } from './reaper.js';

/** A kind of folder sjd writes: its marker file and every entry it may hold. */
export interface FolderKind {
  name: string; // e.g. 'model folder'
  isOurs(dir: string): boolean;
  entries: readonly string[];
}

/**
 * A kind of file sjd writes and may replace when it finds one: recognised by its content, so a
 * user's file of the same name is not. Files written beside such a file (a report's plot, a
 * frontier's SVG) belong to it: claimed with `ours` when it is sjd's.
 */
export interface FileKind {
  name: string; // e.g. 'comparison report'
  isOurs(path: string): boolean;
}

/**
 * The text of a small file (at most `limit` bytes; null for a larger one, a folder or an
 * unreadable path): what a FileKind reads to recognise its files.
 */
export function smallFileText(path: string, limit = 4 << 20): string | null {
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size > limit) return null;
    const buf = Buffer.alloc(st.size);
    const fd = openSync(path, 'r');
    try {
      let at = 0;
      while (at < st.size) {
        const n = readSync(fd, buf, at, st.size - at, at);
        if (n === 0) break;
        at += n;
      }
    } finally {
      closeSync(fd);
    }
    return buf.toString('utf8');
  } catch {
    return null;
  }
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
  const forget = reapUnlessForgotten(probe); // a temporary file too: gone on any stop
  try {
    closeSync(openNew(probe));
  } catch {
    throw new Error(`cannot write ${path}: ${p} does not accept new files`);
  } finally {
    rmSync(probe, { force: true });
    forget();
  }
}

/**
 * An output folder may be written when it does not exist, is empty, or is a folder of this kind
 * that holds only what sjd writes there; anything else needs `force`.
 */
export function claimOutDir(
  dir: string,
  kind: FolderKind,
  force: boolean,
  /** sjd's own folder of this kind needs `force` too (a model folder: every solve would use it) */
  oursNeedsForce = false,
): void {
  if (dir.trim() === '') throw new Error('--out is empty; name a folder');
  refuseShipped(dir, force);
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
      if (entries.length > 0 && ours && oursNeedsForce && !force)
        throw new Error(
          `${dir} holds a ${kind.name} already; choose another --out or pass --force to replace it`,
        );
    }
  }
  checkWritable(dir);
}

/** The installation's shipped models, which every command uses by default. */
const SHIPPED = join(PACKAGE_ROOT, 'models');

/** `path` with the symlinks of its longest existing ancestor resolved. */
function realPathOf(path: string): string {
  const abs = resolve(path);
  let p = abs;
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  try {
    return join(realpathSync(p), relative(p, abs));
  } catch {
    return abs;
  }
}

/** Refuses, unless `force`, a path inside the installation's own models/ (by any spelling). */
function refuseShipped(path: string, force: boolean, flag = '--out'): void {
  if (force || !existsSync(SHIPPED) || !within(realPathOf(path), realPathOf(SHIPPED))) return;
  throw new Error(
    `${flag} ${path} is inside sjd's own models/ (the shipped models every command uses by default); choose another ${flag} or pass --force to replace them`,
  );
}

/** How claimOutFile names and recognises an output file. */
export interface OutFile {
  flag?: string; // the flag that names it, for the message (default --out)
  kind?: FileKind; // an existing file of this kind (sjd's own) may be replaced
  ours?: boolean; // the file belongs to something sjd wrote (a plot beside its report)
  beside?: string; // the file is written beside this output (named in the message)
}

/**
 * An output file may be written when it does not exist, is sjd's own (`kind`, `ours`), or with
 * `force`, beside a writable parent; a user's file is refused in one line naming its flag.
 */
export function claimOutFile(path: string, force: boolean, o: OutFile = {}): void {
  const flag = o.flag ?? '--out';
  if (path.trim() === '') throw new Error(`${flag} is empty; name a file`);
  refuseShipped(path, force, flag);
  if (existsSync(path)) {
    if (statSync(path).isDirectory())
      throw new Error(`${flag} ${path} is a folder, not a file; choose another ${flag}`);
    if (!force && !o.ours && !o.kind?.isOurs(path)) {
      const what = o.beside ? ` (written beside ${o.beside})` : '';
      const not = o.kind ? ` and is not a ${o.kind.name} sjd wrote` : '';
      throw new Error(
        `${path}${what} exists${not}; choose another ${flag} or pass --force to replace it`,
      );
    }
  }
  checkWritable(path);
}

/**
 * An output file of `kind` and the files written beside it: the beside files may be replaced
 * when the main file is sjd's own (they are its plot, data, grids), else each existing one is
 * refused without `force`, as the main file is.
 */
export function claimOutFiles(
  main: string,
  beside: readonly string[],
  force: boolean,
  o: { flag: string; kind: FileKind },
): void {
  claimOutFile(main, force, o);
  const ours = existsSync(main) && o.kind.isOurs(main);
  for (const f of beside) claimOutFile(f, force, { flag: o.flag, ours, beside: main });
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
    return realPathOf(abs);
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
