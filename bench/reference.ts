// Runs the PyTorch reference (bench/torch_ref.py, Debian's python3-torch) with the same thread
// settings as sjd, and reports medians; shared by every benchmark that compares against it.
import { execFileSync } from 'node:child_process';
import { getNumThreads } from '../src/torch/index.js';

const script = new URL('../../bench/torch_ref.py', import.meta.url).pathname;

/** Runs `torch_ref.py <args>` and parses its JSON line. */
export function runReference(args: string[]): { times: number[] } & Record<string, unknown> {
  const out = execFileSync(
    '/usr/bin/python3',
    [script, ...args, '--threads', String(getNumThreads())],
    {
      encoding: 'utf8',
      env: { ...process.env, OMP_WAIT_POLICY: process.env.OMP_WAIT_POLICY ?? 'PASSIVE' },
    },
  );
  return JSON.parse(out.trim().split('\n').pop()!);
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Wall time of fn in milliseconds. */
export function timeMs(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}
