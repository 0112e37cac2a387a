// One categorical draw a row from float64 probabilities (native/categorical_draw.cc, the samplers'
// draws) gives Debian PyTorch's torch.multinomial draws for the same seed, and leaves the
// generator where PyTorch's leaves it; bad probabilities get libtorch's own errors.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import * as torch from '../src/torch/index.js';
import { tempDir } from './tmp.js';

const bench = new URL('../../bench', import.meta.url).pathname;

/** PyTorch's draws of torch.multinomial(p, n, replacement) seeded `seed`, then rand(4) float64. */
const PYTORCH = `
import sys, json, torch
sys.path.insert(0, sys.argv[1])
from torch_ref import read_safetensors, write_safetensors
cases = read_safetensors(sys.argv[2]); spec = json.loads(sys.argv[4]); out = {}
for name, p in cases.items():
    n, repl = spec[name]
    g = torch.Generator().manual_seed(7)
    out[name] = torch.multinomial(p, n, repl, generator=g)
    out[name + ".next"] = torch.rand(4, generator=g, dtype=torch.float64)
write_safetensors(sys.argv[3], out)
`;

test('one draw a row gives PyTorch multinomial draws and generator state for the same seed', () => {
  const g = new torch.TorchGenerator(3);
  const dense = g.randn([600, 256], 'float64').mul(3).softmax(-1); // [600, 256] levels of a site
  // a nucleus: most entries 0, each row keeping its own few; a row's single entry; tiny masses
  const sparse = dense
    .mul(g.rand([600, 256], 'float64').lt(0.05))
    .add(g.randint(0, 256, [600]).oneHot(256).to('float64').mul(1e-3));
  const cases: Record<string, [torch.Tensor, number, boolean]> = {
    dense: [dense, 1, false],
    sparse: [sparse, 1, false],
    unnormalised: [g.rand([300, 9], 'float64').mul(40), 1, false],
    tiny: [g.rand([100, 27], 'float64').mul(1e-300), 1, false],
    single: [g.rand([20, 1], 'float64'), 1, false],
    onehot: [torch.arange(0, 32, 1, 'int64').oneHot(32).to('float64'), 1, false],
    vector: [g.rand([500], 'float64'), 1, false],
    // not this path (libtorch's own): float32, several draws a row, with replacement
    replaced: [dense, 1, true],
    float32: [g.rand([50, 16]), 1, false],
    several: [g.rand([50, 16], 'float64'), 3, false],
  };
  const dir = tempDir('sjd-multinomial-');
  const input = join(dir, 'p.safetensors');
  const output = join(dir, 'out.safetensors');
  torch.saveSafetensors(input, Object.fromEntries(Object.entries(cases).map(([k, [p]]) => [k, p])));
  const spec = Object.fromEntries(Object.entries(cases).map(([k, [, n, r]]) => [k, [n, r]]));
  execFileSync('/usr/bin/python3', ['-c', PYTORCH, bench, input, output, JSON.stringify(spec)]);
  const ref = torch.loadSafetensors(output).tensors;
  for (const [name, [p, n, replacement]] of Object.entries(cases)) {
    const gen = new torch.TorchGenerator(7);
    const draws = gen.multinomial(p, n, replacement);
    assert.deepEqual(draws.shape, ref[name]!.shape, name);
    assert.ok(draws.equal(ref[name]!), `${name}: the draws differ from PyTorch's`);
    assert.ok(gen.rand([4], 'float64').equal(ref[`${name}.next`]!), `${name}: generator state`);
  }
});

test('one draw a row follows the law (5 sigma a category) and never takes a zero entry', () => {
  const p = [0, 0.1, 0, 0.3, 0.6];
  const n = 100_000;
  const draws = new torch.TorchGenerator(5).multinomial(
    torch.tensor(p, [5], 'float64').unsqueeze(0).expand([n, 5]).contiguous(),
    1,
  ); // [n, 1]
  const counts = torch
    .zeros([5], 'int64')
    .scatterAdd(0, draws.flatten(), torch.ones([n], 'int64'))
    .toArray() as number[];
  counts.forEach((c, k) => {
    const sd = Math.sqrt((p[k]! * (1 - p[k]!)) / n);
    assert.ok(Math.abs(c / n - p[k]!) <= 5 * sd, `category ${k}: ${c / n} against ${p[k]}`);
  });
});

test("bad probabilities get libtorch's errors before any draw", () => {
  const gen = new torch.TorchGenerator(1);
  const bad = (values: number[]) => () =>
    gen.multinomial(torch.tensor(values, [2, 2], 'float64'), 1);
  assert.throws(bad([0.5, -0.1, 1, 1]), /inf`, `nan` or element < 0/);
  assert.throws(bad([0.5, Number.NaN, 1, 1]), /inf`, `nan` or element < 0/);
  assert.throws(bad([0.5, Number.POSITIVE_INFINITY, 1, 1]), /inf`, `nan` or element < 0/);
  assert.throws(bad([0.5, 0.5, 0, 0]), /sum of probabilities <= 0/);
  // nothing was drawn: the generator is where a fresh one of its seed is
  assert.ok(gen.rand([3], 'float64').equal(new torch.TorchGenerator(1).rand([3], 'float64')));
});
