// Data-parallel training across machines, simulated: the test makes two network
// namespaces joined by a veth pair with private addresses, runs rank 0 in one and rank 1 in the
// other (so the group's traffic crosses a real interface, not loopback), checks that they take
// the steps one process takes with both shards, and removes the namespaces. Skipped, with the
// reason, where namespaces cannot be made (not root, no `ip`, a sandbox without them).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import * as torch from '../src/torch/index.js';
import { tinySudokuArgs } from './tiny-sudoku.js';
import { tempDir } from './tmp.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const tag = `sjd${process.pid % 100_000}`;
const [nsA, nsB] = [`${tag}a`, `${tag}b`];
const subnet = `10.${200 + (process.pid % 50)}.${process.pid % 250}`;
const ip = (...args: string[]) => spawnSync('ip', args, { encoding: 'utf8' });

/** Why namespaces cannot be made here, or null when they can (a probe namespace is made and removed). */
function cannot(): string | null {
  if (process.getuid?.() !== 0) return 'network namespaces need root';
  const probe = ip('netns', 'add', `${tag}p`);
  if (probe.error) return `no ip command: ${probe.error.message}`;
  if (probe.status !== 0) return `ip netns add failed: ${probe.stderr.trim()}`;
  ip('netns', 'del', `${tag}p`);
  return null;
}

const reason = cannot();
const base = [...tinySudokuArgs(), '--steps', '4'];

test('two ranks in two network namespaces over a veth pair train as one process with both shards', {
  skip: reason ?? false,
  timeout: 180_000,
}, async () => {
  const dir = tempDir('sjd-netns-');
  try {
    for (const args of [
      ['netns', 'add', nsA],
      ['netns', 'add', nsB],
      ['link', 'add', `${tag}va`, 'type', 'veth', 'peer', 'name', `${tag}vb`],
      ['link', 'set', `${tag}va`, 'netns', nsA],
      ['link', 'set', `${tag}vb`, 'netns', nsB],
      ['-n', nsA, 'addr', 'add', `${subnet}.1/24`, 'dev', `${tag}va`],
      ['-n', nsB, 'addr', 'add', `${subnet}.2/24`, 'dev', `${tag}vb`],
      ['-n', nsA, 'link', 'set', `${tag}va`, 'up'],
      ['-n', nsB, 'link', 'set', `${tag}vb`, 'up'],
      ['-n', nsA, 'link', 'set', 'lo', 'up'],
      ['-n', nsB, 'link', 'set', 'lo', 'up'],
    ]) {
      const r = ip(...args);
      assert.equal(r.status, 0, `ip ${args.join(' ')}: ${r.stderr}`);
    }
    const master = `${subnet}.1:29517`;
    const rank = (ns: string, r: number, iface: string) =>
      new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const child = spawn(
          'ip',
          [
            'netns',
            'exec',
            ns,
            process.execPath,
            bin,
            '--threads',
            '1',
            ...base,
            '--rank',
            String(r),
            '--world-size',
            '2',
            '--master',
            master,
            '--interface',
            iface,
            '--out',
            join(dir, 'run'),
          ],
          { stdio: ['ignore', 'ignore', 'pipe'] },
        );
        let stderr = '';
        child.stderr.on('data', (d) => {
          stderr += d;
        });
        child.on('close', (status) => resolve({ status, stderr }));
      });
    const [a, b] = await Promise.all([rank(nsA, 0, `${tag}va`), rank(nsB, 1, `${tag}vb`)]);
    assert.equal(a.status, 0, a.stderr);
    assert.equal(b.status, 0, b.stderr);
    const one = spawnSync(
      process.execPath,
      [bin, '--threads', '1', ...base, '--shards', '2', '--out', join(dir, 'one')],
      { encoding: 'utf8' },
    );
    assert.equal(one.status, 0, one.stderr);
    const load = (d: string) =>
      torch.loadSafetensors(join(dir, d, 'checkpoint', 'model.safetensors')).tensors;
    const [ta, tb] = [load('run'), load('one')];
    for (const k of Object.keys(ta)) assert.ok(ta[k]!.sub(tb[k]!).abs().amax().item() <= 1e-6, k);
  } finally {
    ip('netns', 'del', nsA);
    ip('netns', 'del', nsB);
  }
  assert.ok(!ip('netns', 'list').stdout.includes(tag), 'namespaces removed');
});
