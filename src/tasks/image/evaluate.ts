// Scoring generated images (the paper's FID, app:cifar10-imagenet) in the feature space of the
// classifier trained here (feature-net.ts), at an equal count N for every row:
//   samples   the model's samples against the training images (FD, KID)
//   floor     held-out test images against the training images: what a perfect model scores
//   ceiling   images of independent per-pixel marginals of the training set: no structure
// plus, on the samples, the classifier's label entropy (mean entropy of p(y | x): low when each
// sample looks like one class), an Inception-score analogue exp(E_x KL(p(y | x) || p(y))), and the
// per-class coverage (the share of samples the classifier puts in each class).
import { cat, noGrad, type Tensor, TorchGenerator, tidy } from '../../torch/index.js';
import type { ImageSet } from './dataset.js';
import { type FeatureNet, networkInput } from './feature-net.js';
import { frechetDistance, kernelDistance } from './frechet.js';

export interface Distances {
  fd: number;
  kid: number;
}

export interface ImageScores {
  n: number;
  samples: Distances;
  floor: Distances;
  ceiling: Distances;
  label_entropy: number; // nats
  score: number; // exp(E KL(p(y|x) || p(y)))
  coverage: number[]; // [classes] shares of the samples
}

/** Features and class probabilities of n images [n, C, H, W], in batches of 500. */
export function featuresOf(
  net: FeatureNet,
  images: Uint8Array,
  n: number,
  g: { channels: number; height: number; width: number; levels: number },
): { features: Tensor; probs: Tensor } {
  const per = g.channels * g.height * g.width;
  const fs: Tensor[] = [];
  const ps: Tensor[] = [];
  noGrad(() => {
    for (let s = 0; s < n; s += 500) {
      const m = Math.min(500, n - s);
      const x = networkInput(images.subarray(s * per, (s + m) * per), m, g);
      const f = net.features(x); // [m, D]
      fs.push(f.to('float64'));
      ps.push(net.head.forward(f).softmax(-1).to('float64'));
    }
  });
  return { features: cat(fs, 0), probs: cat(ps, 0) };
}

/** n images drawn pixel by pixel from the training set's per-pixel marginals (seeded). */
export function marginalImages(train: ImageSet, n: number, seed: number): Uint8Array {
  const per = train.channels * train.height * train.width;
  const gen = new TorchGenerator(seed);
  const pick = gen.randint(0, train.n, [n * per]).toArray(); // a source image per pixel
  const out = new Uint8Array(n * per);
  for (let k = 0; k < n * per; k++) out[k] = train.images[pick[k]! * per + (k % per)]!;
  return out;
}

/** The sets scoreImages embeds: the training images, the samples, the test images, the marginals. */
export const SCORED_SETS = 4;

/** Samples [n, C, H, W] scored against `train` (reference) with `test` as the floor. */
export function scoreImages(
  net: FeatureNet,
  samples: Uint8Array,
  n: number,
  train: ImageSet,
  test: ImageSet,
  seed = 0,
  progress?: (sets: number) => void, // told the sets of n embedded so far, of SCORED_SETS
): ImageScores {
  if (train.n < n || test.n < n)
    throw new Error(`scoring ${n} images needs at least ${n} training and ${n} test images`);
  let sets = 0;
  const embedded = <T>(x: T): T => {
    progress?.(++sets);
    return x;
  };
  return tidy(() => {
    const ref = embedded(featuresOf(net, train.images, n, train).features);
    const s = embedded(featuresOf(net, samples, n, train));
    const t = embedded(featuresOf(net, test.images, n, test).features);
    const m = embedded(featuresOf(net, marginalImages(train, n, seed), n, train).features);
    const dist = (x: Tensor): Distances => ({
      fd: frechetDistance(x, ref),
      kid: kernelDistance(x, ref, Math.min(10, Math.floor(n / 50)) || 1),
    });
    const p = s.probs; // [n, classes]
    const logp = p.clamp(1e-12, null).log();
    const entropy = p.mul(logp).sum([-1]).neg().mean([0]).item();
    const py = p.mean([0]); // [classes]
    const kl = p
      .mul(logp.sub(py.clamp(1e-12, null).log()))
      .sum([-1])
      .mean([0])
      .item();
    const counts = new Array(p.size(1)).fill(0);
    for (const c of p.argmax(-1).toArray()) counts[c]++;
    return {
      n,
      samples: dist(s.features),
      floor: dist(t),
      ceiling: dist(m),
      label_entropy: entropy,
      score: Math.exp(kl),
      coverage: counts.map((c) => c / n),
    };
  });
}
