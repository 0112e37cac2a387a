// Temporary files and folders removed however the `sjd` process ends: a signal's default action
// (SIGTERM from `timeout`, SIGHUP, SIGINT during synchronous work, which no JavaScript handler
// can interrupt) or SIGKILL. The command starts, at its first temporary path, a small process
// that outlives it and watches it (a signal 0 every 100 ms); once it is gone, the watcher
// removes every path still listed in a file this process rewrites synchronously at each change
// (so a path is listed before any work on it begins). A path renamed into place is no longer
// there to remove. Started through a shell that puts it in the background and exits, where there
// is one, so that it is nobody's child (a command's workers are what tools count). Off unless the
// command line turns it on (enableReaper): a library call never starts a process of its own.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The watcher: waits for process `pid` to end, then removes the listed paths and the list. */
const REAPER = `
const fs = require('node:fs');
const [list, pid] = [process.argv[1], Number(process.argv[2])];
const alive = () => {
  try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; }
};
const timer = setInterval(() => {
  if (alive()) return;
  clearInterval(timer);
  try {
    for (const p of fs.readFileSync(list, 'utf8').split('\\n'))
      if (p) fs.rmSync(p, { recursive: true, force: true });
  } catch {}
  try { fs.rmSync(list, { force: true }); } catch {}
}, 100);
`;

/** The shell that starts the watcher in the background, where the system has one. */
const SH = '/bin/sh';

let enabled = false;
let list: string | null = null;
let reaper: ChildProcess | null = null;
const paths = new Set<string>();

/** Turns the reaper on for this process (the `sjd` command line). */
export function enableReaper(): void {
  enabled = true;
}

function writeList(): void {
  if (list) writeFileSync(list, [...paths].map((p) => `${p}\n`).join(''));
}

function start(): void {
  list = join(tmpdir(), `.sjd-reap.${process.pid}.${randomBytes(8).toString('hex')}`);
  writeList();
  const args = ['-e', REAPER, list, String(process.pid)];
  reaper = existsSync(SH)
    ? spawn(SH, ['-c', '"$0" "$@" </dev/null >/dev/null 2>&1 &', process.execPath, ...args], {
        stdio: 'ignore',
        detached: true,
      })
    : spawn(process.execPath, args, { stdio: 'ignore', detached: true });
  reaper.unref();
  reaper.on('error', () => {}); // no watcher: the paths stay as before
}

/**
 * Lists `path` (absolute) for removal should this process end before `forget` is called (after
 * the path was renamed into place or removed). Does nothing unless the reaper is enabled.
 */
export function reapUnlessForgotten(path: string): () => void {
  if (!enabled) return () => {};
  const abs = resolve(path); // the reaper may not share this process's working folder later
  paths.add(abs);
  if (reaper === null) start();
  else writeList();
  return () => {
    if (paths.delete(abs)) writeList();
  };
}
