// Temporary files cannot be aimed at another file (util/atomic.ts): each temporary name carries
// random bits, so no one can plant it in advance, and each is created exclusively, so a symlink
// (or anything else) already there is refused, never followed. Checked on each primitive the
// writers share (a file written whole or in pieces, a folder built beside its target, the CSV
// that `sjd solve --file` appends to, the folder's writability probe) and end to end: symlinks
// planted at every name the next few hundred process ids would have used leave their targets and
// the output alone. However a command ends (SIGTERM, SIGHUP, SIGINT during synchronous work, or
// SIGKILL), its temporary files go (util/reaper.ts).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { SudokuCsvAppender } from '../src/tasks/sudoku/puzzle/csv.js';
import { openNew, replaceDirAtomic, tempBeside, writeFileAtomic } from '../src/util/atomic.js';
import { checkWritable } from '../src/util/out-path.js';
import { cliIn } from './sjd-cli.js';
import { tempDir } from './tmp.js';

const PUZZLE = '780000000500009100000010700802500003010300980070000000620800000003000005000006009';

test("an output's missing folders are made: the library's writer and `sjd sample image --out`", () => {
  const dir = tempDir('sjd-out-folders-');
  writeFileAtomic(join(dir, 'a', 'b', 'x.txt'), 'x');
  assert.equal(readFileSync(join(dir, 'a', 'b', 'x.txt'), 'utf8'), 'x');
  const r = cliIn(dir).run('sample', 'image', '-n', '2', '--nfe', '2', '--out', 'runs/grid.png');
  assert.equal(r.status, 0, r.stderr);
  assert.ok(existsSync(join(dir, 'runs', 'grid.png')));
  // a parent that is a file is refused in one line, and nothing is written
  writeFileSync(join(dir, 'afile'), 'mine');
  assert.throws(() => writeFileAtomic(join(dir, 'afile', 'x.txt'), 'x'), /afile is not a folder/);
  assert.equal(readFileSync(join(dir, 'afile'), 'utf8'), 'mine');
});

test('a temporary name is new at every call and cannot be predicted from the process id', () => {
  const dir = tempDir();
  const names = new Set(Array.from({ length: 100 }, () => tempBeside(join(dir, 'out.csv'))));
  assert.equal(names.size, 100);
  for (const n of names)
    assert.match(basename(n), new RegExp(`^\\.out\\.csv\\.${process.pid}\\.[0-9a-f]{16}\\.tmp$`));
});

test("a symlink at a new file's path is refused, and its target is not touched", () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'victim.txt'), 'precious');
  symlinkSync(join(dir, 'victim.txt'), join(dir, 'planted'));
  symlinkSync(join(dir, 'nowhere.txt'), join(dir, 'dangling'));
  assert.throws(() => openNew(join(dir, 'planted')), /EEXIST/);
  assert.throws(() => openNew(join(dir, 'dangling')), /EEXIST/);
  assert.equal(readFileSync(join(dir, 'victim.txt'), 'utf8'), 'precious');
  assert.equal(existsSync(join(dir, 'nowhere.txt')), false);
});

test('each writer, with symlinks planted at the names a process id predicts, writes only its target', () => {
  const dir = tempDir();
  const victim = join(dir, 'victim.txt');
  writeFileSync(victim, 'precious');
  mkdirSync(join(dir, 'victim-dir'));
  // the names of the old scheme (.NAME.PID.tmp), for this process
  const plant = (name: string, target = victim) =>
    symlinkSync(target, join(dir, `.${name}.${process.pid}.tmp`));
  for (const name of ['whole.txt', 'pieces.bin', 'appended.csv', 'folder', 'probe'])
    plant(name, name === 'folder' ? join(dir, 'victim-dir') : victim);
  writeFileAtomic(join(dir, 'whole.txt'), 'new');
  writeFileAtomic(join(dir, 'pieces.bin'), [Buffer.from('a'), Buffer.from('b')]);
  const csv = new SudokuCsvAppender(join(dir, 'appended.csv'));
  csv.commit();
  replaceDirAtomic(join(dir, 'folder'), (tmp) => writeFileSync(join(tmp, 'x'), 'y'));
  checkWritable(join(dir, 'anything'));
  assert.equal(readFileSync(victim, 'utf8'), 'precious');
  assert.deepEqual(readdirSync(join(dir, 'victim-dir')), []);
  for (const f of ['whole.txt', 'pieces.bin', 'appended.csv'])
    assert.ok(lstatSync(join(dir, f)).isFile(), `${f} is a file of its own`);
  assert.equal(readFileSync(join(dir, 'whole.txt'), 'utf8'), 'new');
  assert.equal(readFileSync(join(dir, 'pieces.bin'), 'utf8'), 'ab');
  assert.equal(readFileSync(join(dir, 'folder', 'x'), 'utf8'), 'y');
});

test('sjd solve --file beside symlinks planted for the next process ids leaves their target alone', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'in.csv'), `puzzle\n${PUZZLE}\n`);
  writeFileSync(join(dir, 'victim2.txt'), 'precious');
  // the next process ids, as an attacker guesses them
  const next = spawnSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' });
  const from = Number(next.stdout.trim()) + 1;
  for (let pid = from; pid < from + 300; pid++) {
    symlinkSync(join(dir, 'victim2.txt'), join(dir, `.race.csv.${pid}.tmp`));
    symlinkSync(join(dir, 'victim2.txt'), join(dir, `..probe.${pid}.tmp.${pid}.tmp`));
  }
  const r = cliIn(dir).run('solve', '--file', 'in.csv', '--out', 'race.csv');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(join(dir, 'victim2.txt'), 'utf8'), 'precious');
  assert.ok(lstatSync(join(dir, 'race.csv')).isFile(), 'race.csv is a file, not a link');
  assert.match(readFileSync(join(dir, 'race.csv'), 'utf8'), new RegExp(PUZZLE));
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Polls `f` every 50 ms until it holds or `seconds` pass; whether it held. */
async function until(f: () => boolean, seconds: number): Promise<boolean> {
  for (const t0 = Date.now(); Date.now() - t0 < seconds * 1000; await sleep(50))
    if (f()) return true;
  return f();
}

test('a corpus build stopped by SIGTERM, SIGHUP, SIGINT or SIGKILL leaves no temporary folder', {
  timeout: 240_000,
}, async () => {
  const dir = tempDir();
  // text that takes seconds to build (the temporary folder appears at once)
  const words = ['the', 'of', 'and', 'in', 'a', 'to', 'was', 'is', 'for', 'on'];
  writeFileSync(
    join(dir, 'big.txt'),
    Array.from({ length: 4_000_000 }, (_, i) => words[(i * 7919) % 10]).join(' '),
  );
  const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
  const temps = () => readdirSync(dir).filter((f) => f.endsWith('.tmp'));
  for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT', 'SIGKILL'] as const) {
    const child = spawn(
      process.execPath,
      [bin, 'data', 'text8', '--from', 'big.txt', '--out', 'c8'],
      {
        cwd: dir,
        stdio: 'ignore',
      },
    );
    const exited = once(child, 'exit');
    const building = () => temps().some((f) => f.startsWith('.c8.')); // the corpus's folder
    const started = await until(() => building() || child.exitCode !== null, 60);
    assert.ok(started && child.exitCode === null, `${signal}: the build was under way`);
    child.kill(signal);
    await exited;
    assert.ok(await until(() => temps().length === 0, 20), `${signal}: left ${temps()}`);
    assert.ok(!existsSync(join(dir, 'c8')), `${signal}: no output`);
  }
});

test('a full disk while a folder is built names the folder, not a bare ENOSPC ... write', () => {
  const dir = tempDir();
  const full = Object.assign(new Error('ENOSPC: no space left on device, write'), {
    code: 'ENOSPC',
    syscall: 'write',
  });
  assert.throws(
    () =>
      replaceDirAtomic(join(dir, 'corpus'), () => {
        throw full;
      }),
    new RegExp(`^Error: cannot write ${join(dir, 'corpus')}: no space left on the device$`),
  );
  assert.deepEqual(readdirSync(dir), [], 'nothing left behind');
  const other = new Error('some.csv line 3: not a puzzle');
  assert.throws(
    () =>
      replaceDirAtomic(join(dir, 'x'), () => {
        throw other;
      }),
    (e) => e === other,
  );
});
