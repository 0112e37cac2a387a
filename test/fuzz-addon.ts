// The addon fuzz, run in a child process by errors.test.ts (`node dist/test/fuzz-addon.js run`)
// so that a crash is a failed assertion naming the fatal call rather than a lost test file:
// every native function, 40 seeded calls each with 0-5 arguments drawn from a pool of right and
// wrong values. Each call must return or throw an Error whose message is one non-empty line.
// Before each call its description goes to stderr ("fuzz: name(arg, ...)"); at the end one JSON
// summary line goes to stdout. Without the argument `run` (the test runner loads every file in
// test/) it does nothing.
import { writeSync } from 'node:fs';
import * as torch from '../src/torch/index.js';
import { native as typedNative } from '../src/torch/native.js';

// These tests feed the addon wrong arguments on purpose, so they call it through an untyped view.
const native = typedNative as unknown as Record<string, (...args: unknown[]) => unknown>;

export interface FuzzSummary {
  calls: number;
  returned: number;
  errors: number;
  /** calls that threw something other than an Error with a one-line message (first 20) */
  bad: string[];
  badCount: number;
  gradEnabled: boolean;
  /** torch.ones([2, 3]).sum() after the fuzz: the addon still computes (6) */
  after: number;
}

/** Prefix of the stderr line written before each call. */
export const CALLING = 'fuzz: ';

function fuzz(): FuzzSummary {
  const gen = new torch.TorchGenerator(0);
  const labels = [
    'undefined',
    'null',
    '0',
    '-1',
    '3',
    '2.5',
    'NaN',
    '1e12',
    '-1e12',
    "'float32'",
    "'x'",
    '{}',
    '[]',
    '[2, 3]',
    '[-5]',
    '[1e12, 1e12]',
    'Float32Array(3)',
    'ones([2, 3])',
    'int64 [0, 1]',
    'bool [1, 0]',
    'zeros([0])',
    'generator',
  ];
  const pool = () => [
    undefined,
    null,
    0,
    -1,
    3,
    2.5,
    Number.NaN,
    1e12,
    -1e12,
    'float32',
    'x',
    {},
    [],
    [2, 3],
    [-5],
    [1e12, 1e12],
    new Float32Array(3),
    torch.ones([2, 3]).handle,
    torch.tensor([0, 1], [2], 'int64').handle,
    torch.tensor([1, 0], [2], 'bool').handle,
    torch.zeros([0]).handle,
    gen.handle,
  ];
  const skip = new Set(['setNumThreads', 'setParallelThreads', 'setGradEnabled']);
  const s: FuzzSummary = {
    calls: 0,
    returned: 0,
    errors: 0,
    bad: [],
    badCount: 0,
    gradEnabled: false,
    after: 0,
  };
  const rng = torch.tidy(() => gen.randint(0, 1 << 30, [4000]).toArray());
  let r = 0;
  const next = (n: number) => rng[r++ % rng.length]! % n;
  for (const name of Object.keys(native)) {
    if (skip.has(name)) continue;
    for (let trial = 0; trial < 40; trial++) {
      const p = pool();
      const picks = Array.from({ length: next(6) }, () => next(p.length));
      const call = `${name}(${picks.map((k) => labels[k]).join(', ')})`;
      writeSync(2, `${CALLING}${call}\n`);
      s.calls++;
      try {
        torch.tidy(() => native[name]!(...picks.map((k) => p[k])));
        s.returned++;
      } catch (e) {
        s.errors++;
        const ok = e instanceof Error && e.message.trim() !== '' && !e.message.includes('\n');
        if (!ok) {
          s.badCount++;
          const what = e instanceof Error ? JSON.stringify(e.message.slice(0, 300)) : String(e);
          if (s.bad.length < 20) s.bad.push(`${call} threw ${what}`);
        }
      }
    }
  }
  s.gradEnabled = torch.isGradEnabled();
  s.after = torch.tidy(() => torch.ones([2, 3]).sum().item());
  return s;
}

if (process.argv[2] === 'run') process.stdout.write(`${JSON.stringify(fuzz())}\n`);
