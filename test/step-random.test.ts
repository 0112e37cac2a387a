// Randomness keyed by row (src/sampling/step-random.ts), the ground of a batch that takes in new
// boards as others finish: a keyed draw is the concatenation of each row's own draw, its
// generator seeded by every bit of the row's key (init_by_array, checked against Python's); a run's
// generator draws site counts a row as one stream (its draws unchanged); the reverse SDE's noise
// at the active sites, and a whole adaptive step on an exact oracle, give a row the same result
// alone as beside rows in any other state.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as P from '../src/process/index.js';
import { adaptiveStep, type SamplerState } from '../src/sampling/index.js';
import { normalAt } from '../src/sampling/site-draws.js';
import { RowKeyedRandom, rowKey } from '../src/sampling/step-random.js';
import * as torch from '../src/torch/index.js';
import { ORACLE_TOY, oracleContext } from './oracle.js';

const keys = [rowKey(7, 0, 0, 3), rowKey(7, 1, 0, 0), rowKey(7, 2, 1, 5)];

test('a keyed draw is each row its own: the rows first, concatenated; counts a row likewise', () => {
  const r = new RowKeyedRandom(keys);
  const got = r.randn([3, 4, 2]).toArray();
  const want = keys.flatMap((k) => new torch.TorchGenerator(k).randn([1, 4, 2]).toArray());
  assert.deepEqual(got, want);
  const rows = new RowKeyedRandom(keys).randnRows([2, 0, 3], [2]).toArray();
  const each = [
    ...new torch.TorchGenerator(keys[0]!).randn([2, 2]).toArray(),
    ...new torch.TorchGenerator(keys[2]!).randn([3, 2]).toArray(),
  ];
  assert.deepEqual(rows, each);
  const none = new RowKeyedRandom(keys).randnRows([0, 0, 0], [2], 'float64');
  assert.deepEqual([none.shape, none.dtype], [[0, 2], 'float64']);
  assert.throws(() => r.randnRows([1, 2], [2]), /2 counts for 3 rows/);
  assert.throws(() => r.randn([2, 4]), /needs the rows first: shape \[2,4\] for 3 rows/);
  // a run's generator: the same numbers as one draw of the total
  const a = new torch.TorchGenerator(5).randnRows([2, 0, 3], [2]).toArray();
  assert.deepEqual(a, new torch.TorchGenerator(5).randn([5, 2]).toArray());
  assert.notEqual(rowKey(7, 1, 0, 0), rowKey(7, 0, 1, 0));
});

test('a key of 2^32 or more seeds by every bit: init_by_array, as Python seeds a big integer', () => {
  // Python: random.seed(K); [random.getrandbits(32) & 0x7fffffff for _ in range(4)]
  const python: [bigint, number[]][] = [
    [2n ** 32n, [485306839, 1508871100, 1794561286, 1867113682]],
    [2n ** 64n + 12345n, [2632172, 208406104, 1759469384, 1824067026]],
    [7n * 1_000_003n ** 3n + 5n, [1803468958, 2140921090, 1499809215, 283105361]],
  ];
  for (const [key, want] of python) {
    const got = new torch.TorchGenerator(key).randint(0, 2 ** 31, [4]).toArray();
    assert.deepEqual(got.map(Number), want, `key ${key}`);
  }
  // keys that differ only above bit 63 (or bit 31) draw differently; below 2^32, as torch.manual_seed
  const k = rowKey(7, 1, 0, 0);
  assert.ok(k >= 2n ** 32n);
  const draw = (key: bigint) => new torch.TorchGenerator(key).rand([8]).toArray();
  assert.notDeepEqual(draw(k), draw(k + 2n ** 64n));
  assert.notDeepEqual(draw(k), draw(k + 2n ** 32n));
  for (const small of [0, 5, 2 ** 32 - 1])
    assert.deepEqual(draw(BigInt(small)), new torch.TorchGenerator(small).rand([8]).toArray());
  assert.throws(
    () => new torch.TorchGenerator(-(2n ** 64n)),
    /seed: expected an integer within int64/,
  );
});

test('noise at the active sites: a row draws the same alone and beside rows in other states', () => {
  const at = torch.tensor([1, 0, 1, 1, 0, 1, 1, 1, 0, 0, 1, 0], [3, 4], 'bool');
  const batch = normalAt(at, 2, new RowKeyedRandom(keys)); // [3, 4, 2]
  const alone = normalAt(at.narrow(0, 1, 1), 2, new RowKeyedRandom([keys[1]!]));
  assert.deepEqual(batch.narrow(0, 1, 1).toArray(), alone.toArray());
  // every site of the row active, beside a row with fewer: the same draws as its own all-active
  const full = torch.tensor([1, 1, 1, 1, 0, 1, 0, 0], [2, 4], 'bool');
  const pair = normalAt(full, 2, new RowKeyedRandom([keys[0]!, keys[1]!]));
  const one = normalAt(full.narrow(0, 0, 1), 2, new RowKeyedRandom([keys[0]!]));
  assert.deepEqual(pair.narrow(0, 0, 1).toArray(), one.toArray());
});

test('an adaptive step on an exact oracle: a row steps the same alone and in a batch', () => {
  const toy = ORACLE_TOY;
  const proc = P.makeProcess('hybrid', { length: toy.L });
  const L = toy.L;
  const gen = new torch.TorchGenerator(11);
  const y = gen.randn([3, L, toy.d], 'float64');
  const committed = torch.tensor(
    Array.from({ length: 3 * L }, (_, i) => (i % L < ((i / L) | 0) ? 1 : 0)),
    [3, L],
    'bool',
  );
  const tokens = torch.zeros([3, L], 'int64');
  const state: SamplerState = { y, committed, tokens };
  const ctx = {
    ...oracleContext(proc, toy),
    commit: { by: 'probability' as const, threshold: 0.6 },
  };
  const blanks = new Float64Array(3).fill(L);
  const batch = adaptiveStep(ctx, state, blanks, false, new RowKeyedRandom(keys));
  const row = (s: SamplerState, b: number): SamplerState => ({
    y: s.y.narrow(0, b, 1),
    committed: s.committed.narrow(0, b, 1),
    tokens: s.tokens.narrow(0, b, 1),
  });
  for (const b of [0, 1, 2]) {
    const alone = adaptiveStep(
      ctx,
      row(state, b),
      blanks.subarray(b, b + 1),
      false,
      new RowKeyedRandom([keys[b]!]),
    );
    const got = row(batch, b);
    assert.deepEqual(got.committed.toArray(), alone.committed.toArray(), `row ${b}`);
    assert.deepEqual(got.tokens.toArray(), alone.tokens.toArray(), `row ${b}`);
    assert.deepEqual(got.y.toArray(), alone.y.toArray(), `row ${b}`);
  }
});
