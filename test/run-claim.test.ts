// Claims on run folders (train/run-claim.ts) and the comparison queue that shares its runs
// between processes (lab/run-queue.ts): a live holder keeps a run, a dead one's claim is taken
// over (as is a zombie's, or a reused pid's), a process's own claim is granted again; two `sjd compare` processes on one --out train
// each run once between them and write the same report; `sjd train --resume` refuses a run
// another process is training, in one line; `sjd runs` shows where each run stands.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { train } from '../src/index.js';
import { workThrough } from '../src/lab/index.js';

const { claimFile, claimHolder, claimRun, claimRunOrFail } = train;

import { SHIPPED_FEATURES } from '../src/tasks/image/feature-train.js';
import { procStat } from '../src/train/run-claim.js';
import { tempDir } from './tmp.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const sjd = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

/** A live process other than this one, and a claim on `dir` written in its name. */
function heldBy(dir: string): ChildProcess {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  writeFileSync(claimFile(dir), JSON.stringify({ pid: child.pid, host: hostname() }));
  return child;
}

const exited = (c: ChildProcess) => new Promise((r) => c.once('exit', r));

test('a claim is exclusive while its holder lives, re-entrant for its holder, and released', () => {
  const dir = join(tempDir('sjd-claim-'), 'runs', 'a-seed0'); // its parent is made
  const release = claimRun(dir);
  assert.ok(release);
  assert.equal(JSON.parse(readFileSync(claimFile(dir), 'utf8')).pid, process.pid);
  assert.equal(claimHolder(dir), null, 'this process is not "another" holder');
  const again = claimRun(dir);
  assert.ok(again, 're-entrant');
  again();
  assert.ok(existsSync(claimFile(dir)), 'the inner release leaves the outer claim');
  release();
  assert.ok(!existsSync(claimFile(dir)));
  assert.ok(!existsSync(dir), 'a claim makes no run folder');
});

test("a live process's claim refuses others (one line naming it); a dead one's is taken over", async () => {
  const dir = join(tempDir('sjd-claim-'), 'b-seed0');
  const child = heldBy(dir);
  try {
    assert.equal(claimRun(dir), null);
    assert.equal(claimHolder(dir)?.pid, child.pid);
    assert.throws(
      () => claimRunOrFail(dir),
      new RegExp(
        `^Error: ${dir} is in use by process ${child.pid}; wait for it to finish or stop it$`,
      ),
    );
  } finally {
    child.kill();
    await exited(child);
  }
  const release = claimRun(dir);
  assert.ok(release, 'stale: its holder has exited');
  assert.equal(JSON.parse(readFileSync(claimFile(dir), 'utf8')).pid, process.pid);
  release();
  // an unreadable claim (a stop mid-write) holds nothing
  writeFileSync(claimFile(dir), '{"pi');
  const r2 = claimRun(dir, 10);
  assert.ok(r2);
  r2();
});

test('a claim naming a zombie, or a pid since given to another process (its start time differs), holds nothing', async () => {
  const dir = join(tempDir('sjd-claim-'), 'z-seed0');
  const release = claimRun(dir);
  assert.ok(release);
  const mine = JSON.parse(readFileSync(claimFile(dir), 'utf8'));
  assert.match(mine.start, /^\d+$/, 'the claim records its start time');
  release();
  // a live process, its claim with its own start time and with another
  const child = heldBy(dir);
  try {
    const start = procStat(child.pid!)!.start;
    writeFileSync(claimFile(dir), JSON.stringify({ pid: child.pid, host: hostname(), start }));
    assert.equal(claimHolder(dir)?.pid, child.pid);
    writeFileSync(
      claimFile(dir),
      JSON.stringify({ pid: child.pid, host: hostname(), start: `${start}0` }),
    );
    assert.equal(claimHolder(dir), null, 'the pid now names another process');
  } finally {
    child.kill();
    await exited(child);
  }
  // a zombie: a child of `sleep 30` that exited and that sleep never reaps (the child outlives the
  // exec: one that exits first may be reaped by the shell, and no zombie is left, as under load)
  const parent = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 30'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    const zombie = Number(
      await new Promise<string>((r) => parent.stdout!.once('data', (d) => r(String(d)))),
    );
    const state = () => procStat(zombie)?.state;
    for (let i = 0; i < 250 && state() !== 'Z'; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(state(), 'Z');
    writeFileSync(claimFile(dir), JSON.stringify({ pid: zombie, host: hostname() }));
    assert.equal(claimHolder(dir), null);
    const taken = claimRun(dir, 10);
    assert.ok(taken, 'taken over');
    taken();
  } finally {
    parent.kill();
    await exited(parent);
  }
});

test('the queue works the free runs first, waits for held ones, and returns results in its order', async () => {
  const out = tempDir('sjd-queue-');
  const dirs = ['x-seed0', 'y-seed0', 'z-seed0'].map((d) => join(out, d));
  const child = heldBy(dirs[0]!);
  const worked: string[] = [];
  const reports: string[][] = [];
  const lines: string[] = [];
  const queue = dirs.map((dir) => ({
    dir,
    work: async () => {
      worked.push(dir);
      if (dir === dirs[2]) {
        // the holder of x finishes while this process works on z
        child.kill();
        await exited(child);
      }
      return `result of ${dir}`;
    },
  }));
  const results = await workThrough(queue, {
    log: (l) => lines.push(l),
    onResult: (done) => {
      reports.push(done);
    },
    pollMs: 20,
  });
  assert.deepEqual(worked, [dirs[1], dirs[2], dirs[0]]);
  assert.deepEqual(
    results,
    dirs.map((d) => `result of ${d}`),
  );
  assert.deepEqual(reports.at(-1), results);
  assert.deepEqual(reports[0], [`result of ${dirs[1]}`]);
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(
    lines[0]!,
    new RegExp(`^waiting for runs other processes hold: ${dirs[0]} \\(process `),
  );
  for (const d of dirs) assert.ok(!existsSync(claimFile(d)), `${d}: claim released`);
  // with wait: false, a run another process holds is left to it: the rest come back in order
  const holder = heldBy(dirs[1]!);
  try {
    const left: string[] = [];
    const some = await workThrough(
      dirs.map((dir) => ({ dir, work: async () => dir })),
      { wait: false, log: (l) => left.push(l), pollMs: 60_000 },
    );
    assert.deepEqual(some, [dirs[0], dirs[2]]);
    assert.deepEqual(left, [`left to the processes that hold them: ${dirs[1]}`]);
  } finally {
    holder.kill();
    await exited(holder);
  }
  // an interrupted run stops the queue (null) and releases its claim
  const stopped = await workThrough([{ dir: dirs[1]!, work: async () => null }]);
  assert.equal(stopped, null);
  assert.ok(!existsSync(claimFile(dirs[1]!)));
});

test('runs already scored are worked first, so the first report holds them; results stay in queue order', async () => {
  const out = tempDir('sjd-queue-scored-');
  const dirs = ['a-seed0', 'b-seed0', 'c-seed0'].map((d) => join(out, d));
  const worked: string[] = [];
  const reports: string[][] = [];
  // c is scored (its work only reads caches); a and b must be trained
  const results = await workThrough(
    dirs.map((dir) => ({
      dir,
      work: async () => {
        worked.push(dir);
        return dir;
      },
      scored: () => dir === dirs[2],
    })),
    { onResult: (done) => void reports.push(done) },
  );
  assert.deepEqual(worked, [dirs[2], dirs[0], dirs[1]]);
  assert.deepEqual(reports[0], [dirs[2]]);
  assert.deepEqual(reports[1], [dirs[0], dirs[2]]);
  assert.deepEqual(results, dirs);
});

test('two sjd compare processes on one --out train each run once between them and report the same', async () => {
  const out = tempDir('sjd-queue-cli-');
  const args = (doc: string) => [
    bin,
    '--threads',
    '1',
    'compare',
    'text',
    '--size',
    'tiny',
    '--steps',
    '3',
    '--models',
    'masked,hybrid',
    '--seeds',
    '0,1',
    '--samplers',
    'ancestral',
    '-n',
    '1',
    '--nfes',
    '8',
    '--out',
    out,
    '--doc',
    join(out, doc),
  ];
  const run = (doc: string) =>
    new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const c = spawn(process.execPath, args(doc));
      let stderr = '';
      c.stderr.on('data', (d) => {
        stderr += d;
      });
      c.on('exit', (status) => resolve({ status, stderr }));
    });
  const [a, b] = await Promise.all([run('a.md'), run('b.md')]);
  assert.equal(a.status, 0, a.stderr);
  assert.equal(b.status, 0, b.stderr);
  const trained = [...`${a.stderr}\n${b.stderr}`.matchAll(/^training (\S+)$/gm)].map((m) => m[1]);
  assert.deepEqual(
    trained.sort(),
    ['hybrid-seed0', 'hybrid-seed1', 'masked-seed0', 'masked-seed1'].map((r) => join(out, r)),
  );
  const strip = (doc: string) =>
    readFileSync(join(out, doc), 'utf8')
      .replace(/ --doc \S+/, '')
      .replace(/\]\([abc]\.svg\)/, '](.svg)')
      .replace(/\[[abc]\.json\]\([abc]\.json\)/, '[.json](.json)');
  assert.equal(strip('a.md'), strip('b.md'));
  assert.match(strip('a.md'), /\| MDLM \(masked\) \| mdlm \| 2 \| /);
  // --no-wait changes who works the runs, not the report (its reproduce line leaves it out)
  const c = spawnSync(process.execPath, [...args('c.md'), '--no-wait'], { encoding: 'utf8' });
  assert.equal(c.status, 0, c.stderr);
  assert.doesNotMatch(c.stderr, /training|left to/);
  assert.equal(strip('c.md'), strip('a.md'));
  assert.doesNotMatch(readFileSync(join(out, 'c.md'), 'utf8'), /no-wait/);
});

test('sjd train --resume refuses a run another live process is training, in one line', async () => {
  const dir = tempDir('sjd-claim-train-');
  const run = join(dir, 'r');
  const made = sjd('train', 'text', '--size', 'tiny', '--steps', '2', '--out', run);
  assert.equal(made.status, 0, made.stderr);
  const child = heldBy(run);
  try {
    const r = sjd('train', 'text', '--resume', '--steps', '4', '--out', run);
    assert.notEqual(r.status, 0);
    assert.equal(
      r.stderr.trim(),
      `sjd: ${run} is in use by process ${child.pid}; wait for it to finish or stop it`,
    );
  } finally {
    child.kill();
    await exited(child);
  }
  const r = sjd('train', 'text', '--resume', '--steps', '4', '--out', run);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(!existsSync(claimFile(run)));
});

test('sjd runs shows each run folder: its step, the live process holding it, what it has cached', async () => {
  const dir = tempDir('sjd-runs-');
  const made = sjd(
    'train',
    'text',
    '--size',
    'tiny',
    '--steps',
    '2',
    '--out',
    join(dir, 'a-seed0'),
  );
  assert.equal(made.status, 0, made.stderr);
  // a run kept as results (config and a frontier, no checkpoint), a stopped trace, a user's file
  mkdirSync(join(dir, 'b-seed0'));
  copyFileSync(join(dir, 'a-seed0', 'config.json'), join(dir, 'b-seed0', 'config.json'));
  writeFileSync(join(dir, 'b-seed0', 'frontier-ancestral.json'), '{}');
  writeFileSync(join(dir, 'a-seed0', 'frontier-sjd.partial.json'), '{"points":[{},{},{}]}');
  writeFileSync(join(dir, 'notes.txt'), 'mine');
  const child = heldBy(join(dir, 'a-seed0'));
  try {
    const r = sjd('runs', dir);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 3, r.stdout);
    assert.match(lines[0]!, /^run +step +working +cached$/);
    assert.match(
      lines[1]!,
      new RegExp(
        `^a-seed0 +2/2 +process ${child.pid} +frontier-sjd\\.partial\\.json \\(3 points\\)$`,
      ),
    );
    assert.match(lines[2]!, /^b-seed0 +kept \(2\) +- +frontier-ancestral\.json$/);
    const json = JSON.parse(sjd('runs', dir, '--json').stdout);
    assert.deepEqual(json[0], {
      name: 'a-seed0',
      step: 2,
      steps: 2,
      heldBy: child.pid,
      results: [],
      partial: [{ file: 'frontier-sjd.partial.json', points: 3 }],
    });
  } finally {
    child.kill();
    await exited(child);
  }
  const bad = sjd('runs', join(dir, 'missing'));
  assert.notEqual(bad.status, 0);
  assert.equal(bad.stderr, `sjd: ${join(dir, 'missing')}: no such folder\n`);
  assert.equal(
    sjd('runs', join(dir, 'notes.txt')).stderr,
    `sjd: ${join(dir, 'notes.txt')} is a file, not a folder of runs\n`,
  );
  // one broken config.json is listed as broken; the other runs are still shown (it failed all),
  // a dead holder holding nothing; a feature network's folder (`sjd train features`) is listed
  // with its steps and accuracy
  mkdirSync(join(dir, 'c-seed0'));
  writeFileSync(join(dir, 'c-seed0', 'config.json'), '{ not json');
  cpSync(SHIPPED_FEATURES, join(dir, 'cifar-features'), { recursive: true });
  const listed = sjd('runs', dir);
  assert.equal(listed.status, 0, listed.stderr);
  assert.match(listed.stdout, /^a-seed0 +2\/2 +- +/m, 'a dead holder holds nothing');
  assert.match(listed.stdout, /^c-seed0 +broken \(.*c-seed0\/config\.json: not valid JSON\)/m);
  assert.match(
    listed.stdout,
    /^cifar-features +features, 3000 steps \(test accuracy 90\.1%\) +- +-$/m,
  );
  const entry = JSON.parse(sjd('runs', dir, '--json').stdout).find(
    (r: { name: string }) => r.name === 'cifar-features',
  );
  assert.deepEqual(
    [entry.step, entry.steps, entry.features],
    [3000, 3000, { testAccuracy: 0.9012 }],
  );
});
