// The image metrics: the Fréchet distance against its closed form for Gaussians with
// diagonal covariances (|mu_1 - mu_2|^2 + sum (s_1 - s_2)^2), zero for a set against itself and
// symmetric; KID near 0 for two samples of one law and clearly positive for shifted laws; the
// feature network learns a synthetic labelled set well above chance. The speckle measures (issue
// #31): isolated outliers counted exactly, small changes and smooth ramps not; the share of sites
// a run's last step commits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TrajectoryStep } from '../src/sampling/index.js';
import {
  classifierAccuracy,
  frechetDistance,
  kernelDistance,
  lastStepShare,
  speckleFraction,
  syntheticImages,
  trainFeatureNet,
} from '../src/tasks/image/index.js';
import * as torch from '../src/torch/index.js';

test('Fréchet distance: the closed form for diagonal Gaussians (sampled, n = 20000, D = 4)', () => {
  const gen = new torch.TorchGenerator(1);
  const n = 20_000;
  const mu1 = torch.tensor([0, 1, 2, 3], [4], 'float64');
  const s1 = torch.tensor([1, 2, 0.5, 1], [4], 'float64');
  const mu2 = torch.tensor([1, 1, 0, 3], [4], 'float64');
  const s2 = torch.tensor([1, 1, 0.5, 3], [4], 'float64');
  const a = gen.randn([n, 4], 'float64').mul(s1).add(mu1);
  const b = gen.randn([n, 4], 'float64').mul(s2).add(mu2);
  const want = 1 + 4 + (1 + 0 + 0 + 4); // |dmu|^2 = 1 + 4; sum (s1 - s2)^2 = 1 + 4
  const fd = frechetDistance(a, b);
  assert.ok(Math.abs(fd - want) < 0.15, `FD ${fd}, closed form ${want}`); // sampling error ~0.05
  assert.ok(Math.abs(frechetDistance(a, a)) < 1e-8, 'FD(a, a) = 0');
  assert.ok(Math.abs(frechetDistance(b, a) - fd) < 1e-6, 'symmetric');
  // a correlated covariance: FD between N(0, S) and N(0, I) is tr(S) + D - 2 tr(S^1/2)
  const L = torch.tensor([1, 0, 0, 0.8, 0.6, 0, 0.3, 0.2, 0.9], [3, 3], 'float64');
  const c = gen.randn([n, 3], 'float64').matmul(L.transpose(0, 1));
  const S = L.matmul(L.transpose(0, 1));
  const [l] = torch.eigh(S);
  const closed = S.mul(torch.eye(3, 'float64')).sum().item() + 3 - 2 * l.sqrt().sum().item();
  const fd2 = frechetDistance(c, gen.randn([n, 3], 'float64'));
  assert.ok(Math.abs(fd2 - closed) < 0.05, `FD ${fd2}, closed form ${closed}`);
  assert.throws(() => frechetDistance(a.narrow(0, 0, 1), b), /at least 2 feature vectors/);
});

test('KID: about 0 for two samples of one law, positive for a shifted one', () => {
  const gen = new torch.TorchGenerator(2);
  const a = gen.randn([2000, 8], 'float64');
  const b = gen.randn([2000, 8], 'float64');
  const same = kernelDistance(a, b);
  const shifted = kernelDistance(a, b.add(0.5));
  assert.ok(Math.abs(same) < 0.01, `KID same law ${same}`);
  assert.ok(shifted > 10 * Math.max(Math.abs(same), 1e-3), `KID shifted ${shifted} vs ${same}`);
});

test('the feature network learns three synthetic pattern classes well above chance', () => {
  const set = syntheticImages({ n: 600, channels: 1, height: 16, width: 16, levels: 16, seed: 3 });
  const held = syntheticImages({ n: 150, channels: 1, height: 16, width: 16, levels: 16, seed: 4 });
  const net = trainFeatureNet(set, { steps: 60, batch: 32, lr: 3e-3, seed: 0 });
  const acc = classifierAccuracy(net, held);
  assert.ok(acc > 0.8, `held-out accuracy ${acc} (chance 1/3)`);
});

test('speckle: isolated pixels off their neighbours, counted exactly; the last step share of a trajectory', () => {
  const g = { channels: 2, height: 6, width: 7, levels: 16 };
  const N = 2 * 2 * 6 * 7;
  const flat = new Uint8Array(N).fill(5);
  assert.equal(speckleFraction(flat, 2, g), 0);
  // three isolated outliers (a corner, an edge, the middle), one small change that stays within a
  // quarter of the range (3.75 levels), in different images and channels
  const spots = flat.slice();
  spots[0] = 15; // image 0, channel 0, corner
  spots[(0 * 2 + 1) * 42 + 3] = 0; // image 0, channel 1, top edge
  spots[(1 * 2 + 0) * 42 + 3 * 7 + 3] = 12; // image 1, channel 0, middle
  spots[(1 * 2 + 1) * 42 + 2 * 7 + 2] = 8; // 3 levels off: not speckle
  assert.equal(speckleFraction(spots, 2, g), 3 / N);
  // a smooth gradient (every pixel near its neighbours' median) is not speckled
  const ramp = Uint8Array.from({ length: N }, (_, i) => Math.floor(((i % 42) % 7) * 2));
  assert.equal(speckleFraction(ramp, 2, g), 0);
  assert.throws(() => speckleFraction(flat, 3, g), /168 values for 3 images of 6 x 7 x 2/);
  const step = (committed: number[]) =>
    ({ committed: Uint8Array.from(committed) }) as unknown as TrajectoryStep;
  assert.equal(lastStepShare([step([0, 0, 0, 0]), step([1, 0, 1, 0]), step([1, 1, 1, 1])]), 0.5);
  assert.equal(lastStepShare([step([1, 1])]), 0);
});
