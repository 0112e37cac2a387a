// Data-parallel training (src/train/data-parallel.ts, launcher.ts): two local
// processes with one shard each take exactly the steps of one process doing both shards (the
// same parameters, compared to a stated tolerance); a two-process run stopped half way resumes
// on one process along the same trajectory; Ctrl-C reaches every rank and leaves a checkpoint;
// a killed rank takes the group down with a one-line error and an intact last checkpoint; bad
// flags are one-line errors; --nproc is bounded by the machine, and a signal during the launch
// stops it. Loopback only, one thread a rank.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { resolvePrecision } from '../src/model/auto-precision.js';
import * as torch from '../src/torch/index.js';
import { rankBound } from '../src/train/index.js';
import { freePort } from '../src/util/free-port.js';
import { outputOf } from './child-output.js';
import { tinySudokuArgs } from './tiny-sudoku.js';
import { tempDir } from './tmp.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const dir = tempDir('sjd-dp-');
const base = [...tinySudokuArgs()];
// Results depend on the threads of libtorch's reductions: every process here has one (the
// launcher gives each of 2 ranks half of --threads 2).
const run = (threads: string, args: string[]) =>
  spawnSync(process.execPath, [bin, '--threads', threads, ...base, ...args], { encoding: 'utf8' });
const sjd = (...args: string[]) => run(args.includes('--nproc') ? '2' : '1', args);

/** The largest difference between the parameters of two runs' checkpoints. */
function maxDiff(a: string, b: string): number {
  const load = (d: string) =>
    torch.loadSafetensors(join(d, 'checkpoint', 'model.safetensors')).tensors;
  const ta = load(a);
  const tb = load(b);
  assert.deepEqual(Object.keys(ta).sort(), Object.keys(tb).sort());
  return Math.max(...Object.keys(ta).map((k) => ta[k]!.sub(tb[k]!).abs().amax().item()));
}

// Float sums in another order differ in the last bits; two shards sum in one order either way.
const TOL = 1e-6;

test('2 processes x 1 shard take the same steps as 1 process x 2 shards', () => {
  const two = sjd('--steps', '6', '--nproc', '2', '--out', join(dir, 'two'));
  assert.equal(two.status, 0, two.stderr);
  assert.match(two.stdout, /^finished at step 6;/m);
  const one = sjd('--steps', '6', '--shards', '2', '--out', join(dir, 'one'));
  assert.equal(one.status, 0, one.stderr);
  assert.ok(maxDiff(join(dir, 'two'), join(dir, 'one')) <= TOL);
  const config = JSON.parse(readFileSync(join(dir, 'two', 'config.json'), 'utf8'));
  assert.equal(config.shards, 2); // --nproc 2 cuts a new run's batch in 2
  // the loss logged is the global batch's: the same in both runs
  const losses = (d: string) =>
    readFileSync(join(dir, d, 'metrics.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => Number(l.split(',')[1]));
  const [a, b] = [losses('two'), losses('one')];
  assert.equal(a.length, b.length);
  for (const [i, x] of a.entries())
    assert.ok(Math.abs(x - b[i]!) < 1e-5, `loss at row ${i}: ${x} vs ${b[i]}`);
});

test("--precision auto in a 2-process run: every rank trains at rank 0's choice, recorded", () => {
  const r = sjd('--steps', '2', '--nproc', '2', '--precision', 'auto', '--out', join(dir, 'auto'));
  assert.equal(r.status, 0, r.stderr);
  const config = JSON.parse(readFileSync(join(dir, 'auto', 'config.json'), 'utf8'));
  const want = resolvePrecision('auto', 'sudoku', undefined, {}).precision;
  assert.equal(config.model.precision ?? 'float32', want);
});

test('a 2-process run stopped half way resumes on 1 process along the same trajectory', () => {
  const out = join(dir, 'half');
  const first = sjd('--steps', '6', '--nproc', '2', '--stop-after', '3', '--out', out);
  assert.equal(first.status, 0, first.stderr); // a requested stop, not an interrupt
  assert.match(first.stdout, /^stopped at step 3 \(--stop-after 3; --resume continues\);/m);
  const rest = sjd('--resume', '--out', out);
  assert.equal(rest.status, 0, rest.stderr);
  assert.match(rest.stdout, /^finished at step 6;/m);
  assert.ok(maxDiff(out, join(dir, 'two')) <= TOL);
  // and a run without shards cannot be spread over processes
  const single = sjd('--steps', '2', '--out', join(dir, 'single'));
  assert.equal(single.status, 0, single.stderr);
  const spread = sjd('--resume', '--nproc', '2', '--out', join(dir, 'single'));
  assert.notEqual(spread.status, 0);
  assert.match(spread.stderr.trim(), /^sjd: .*single: the run has no shards/);
});

test('Ctrl-C to the launcher stops every rank at one step with a checkpoint', {
  timeout: 120_000,
}, async () => {
  const out = join(dir, 'sigint');
  const child = spawn(
    process.execPath,
    [bin, '--threads', '2', ...base, '--steps', '100000', '--nproc', '2', '--out', out],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const o = outputOf(child, (stderr) => {
    if (/step \d+ eval/.test(stderr) && !child.killed) child.kill('SIGINT');
  });
  const status = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  assert.equal(status, 130, o.stderr);
  const m = /^interrupted at step (\d+);/m.exec(o.stdout);
  assert.ok(m, o.stdout);
  const state = JSON.parse(readFileSync(join(out, 'checkpoint', 'state.json'), 'utf8'));
  assert.equal(state.step, Number(m[1]));
});

test('a killed rank takes the group down in one line; the last checkpoint stays loadable', {
  timeout: 120_000,
}, async () => {
  const out = join(dir, 'killed');
  const child = spawn(
    process.execPath,
    [bin, '--threads', '2', ...base, '--steps', '100000', '--nproc', '2', '--out', out],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  // once rank 0 has checkpointed (every 10 steps in the tiny size), kill rank 1
  const rank1 = await new Promise<number>((resolve) => {
    const poll = setInterval(() => {
      const ps = spawnSync('pgrep', ['-f', '--', `${out} --rank 1 --world-size 2`], {
        encoding: 'utf8',
      });
      const pid = Number(ps.stdout.trim().split('\n')[0]);
      if (pid > 0 && /step \d+ eval/.test(stderr)) {
        clearInterval(poll);
        resolve(pid);
      }
    }, 200);
  });
  process.kill(rank1, 'SIGKILL');
  const status = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  assert.notEqual(status, 0);
  assert.match(stderr, /sjd: data-parallel training failed: rank 1 exited with SIGKILL/);
  const state = JSON.parse(readFileSync(join(out, 'checkpoint', 'state.json'), 'utf8'));
  assert.ok(state.step >= 10);
  assert.ok(
    Object.keys(torch.loadSafetensors(join(out, 'checkpoint', 'model.safetensors')).tensors)
      .length > 0,
  );
});

test('bad data-parallel flags are one-line errors', () => {
  for (const [args, message] of [
    [
      ['--nproc', '3', '--shards', '2', '--steps', '2', '--out', join(dir, 'b1')],
      /2 shards, which 3 processes cannot share equally/,
    ],
    [
      ['--rank', '0', '--steps', '2', '--out', join(dir, 'b2')],
      /--rank, --world-size and --master go together/,
    ],
    [
      [
        '--rank',
        '2',
        '--world-size',
        '2',
        '--master',
        '127.0.0.1:1',
        '--steps',
        '2',
        '--out',
        join(dir, 'b3'),
      ],
      /--rank 2 is not below --world-size 2/,
    ],
    [
      [
        '--rank',
        '0',
        '--world-size',
        '2',
        '--master',
        'nowhere',
        '--steps',
        '2',
        '--out',
        join(dir, 'b4'),
      ],
      /--master must be ADDRESS:PORT/,
    ],
    [
      ['--nproc', '2', '--rank', '0', '--steps', '2', '--out', join(dir, 'b5')],
      /--nproc starts its own ranks/,
    ],
    // a master name that does not resolve fails at once
    [
      [
        ...['--rank', '1', '--world-size', '2', '--master', 'nohost.invalid:29555'],
        ...['--interface', 'lo', '--steps', '2', '--out', join(dir, 'b6')],
      ],
      /^sjd: --master nohost\.invalid:29555: cannot resolve 'nohost\.invalid' \(\w+\)$/,
    ],
  ] as const) {
    const r = sjd(...args);
    assert.notEqual(r.status, 0, args.join(' '));
    assert.match(r.stderr.trim(), message);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});

test('--nproc is bounded by what the machine holds (cores, free memory): one line naming the bound, no rank started', () => {
  assert.deepEqual(rankBound(2, 8 * 2 ** 30).max, 4); // 2 a core
  assert.deepEqual(rankBound(16, 2 ** 29).max, 2); // 512 MiB free at 256 MiB a rank
  const out = join(dir, 'many');
  const r = sjd('--nproc', '999', '--steps', '2', '--out', out);
  assert.notEqual(r.status, 0);
  assert.match(
    r.stderr.trim(),
    /^sjd: --nproc 999: this machine holds at most \d+ ranks \(\d+ cores carry \d+ ranks at 2 a core; [\d.]+ GiB of free memory holds \d+ at 256 MiB a rank\)$/,
  );
  assert.ok(!existsSync(out), 'nothing written');
});

test('a signal during the launch stops it: no rank starts after it, the started ones end, status 130', () => {
  // A driver process runs the launcher over a stand-in rank that never exits by itself (as a
  // rank waiting in the rendezvous for ranks that will not come), and signals itself as rank 0
  // starts.
  const rank = join(dir, 'waiting-rank.mjs');
  writeFileSync(rank, 'setInterval(() => {}, 1000);\n');
  const launcher = new URL('../src/train/launcher.js', import.meta.url).href;
  const driver = `
    const { launch } = await import(${JSON.stringify(launcher)});
    const started = [];
    const status = await launch({ nproc: 3, argv: [], bin: ${JSON.stringify(rank)}, threads: 1,
      onStart: (r) => { started.push(r); if (r === 0) process.kill(process.pid, 'SIGINT'); } });
    console.log(JSON.stringify({ status, started }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', driver], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout.trim()), { status: 130, started: [0] });
  const left = spawnSync('pgrep', ['-f', rank], { encoding: 'utf8' }).stdout.trim();
  assert.equal(left, '', 'no rank left running');
});

test('a rank whose master never answers gives up after --rendezvous-timeout, in one line', async () => {
  const port = await freePort(); // nobody listens there
  const t0 = performance.now();
  const r = sjd(
    ...['--rank', '1', '--world-size', '2', '--master', `127.0.0.1:${port}`],
    ...['--rendezvous-timeout', '2', '--steps', '2', '--out', join(dir, 'late')],
  );
  const seconds = (performance.now() - t0) / 1000;
  assert.notEqual(r.status, 0);
  assert.match(
    r.stderr.trim(),
    new RegExp(
      `^sjd: rank 1 of 2 could not join the group at 127\\.0\\.0\\.1:${port} within 2 s \\(--rendezvous-timeout\\): .+$`,
    ),
  );
  assert.ok(seconds < 30, `gave up after ${seconds.toFixed(1)} s`);
});
