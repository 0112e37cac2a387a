// Training and keeping the feature network of the image metrics (feature-net.ts): AdamW on the
// labelled training images (cosine learning rate, batches drawn with the seed's generator), its
// test accuracy measured on the held-out split, and a folder that holds it (config.json with the
// accuracy, features.safetensors, manifest.json), written atomically.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AdamW,
  crossEntropy,
  loadSafetensors,
  noGrad,
  saveSafetensors,
  TorchGenerator,
  tensor,
  tidy,
} from '../../torch/index.js';
import { learningRate } from '../../train/index.js';
import { optimiseStep } from '../../train/step.js';
import { replaceDirAtomic, writeJsonAtomic } from '../../util/atomic.js';
import { maxOf } from '../../util/fold.js';
import { claimOutDir, type FolderKind } from '../../util/out-path.js';
import type { ImageSet } from './dataset.js';
import { FeatureNet, type FeatureNetConfig, networkInput } from './feature-net.js';

/** The shipped feature network (trained on Fashion-MNIST; its accuracy is in its config). */
export const SHIPPED_FEATURES = new URL('../../../../models/fashion-features', import.meta.url)
  .pathname;

export const FEATURE_FILES = {
  config: 'config.json',
  weights: 'features.safetensors',
  manifest: 'manifest.json',
} as const;

export const FEATURE_FOLDER: FolderKind = {
  name: 'feature network folder',
  isOurs: (dir) => existsSync(join(dir, FEATURE_FILES.weights)),
  entries: Object.values(FEATURE_FILES),
};

export interface FeatureTrainOptions {
  steps: number;
  batch: number;
  lr: number;
  seed: number;
  log?: (step: number, loss: number) => void;
}

export interface SavedFeatureNet {
  config: FeatureNetConfig & { testAccuracy: number; levels: number; steps: number; data: string };
}

/** The share of images whose argmax class is their label, in batches of 500. */
export function classifierAccuracy(net: FeatureNet, set: ImageSet): number {
  if (!set.labels) throw new Error('accuracy needs labelled images');
  let right = 0;
  const per = set.channels * set.height * set.width;
  for (let s = 0; s < set.n; s += 500) {
    const m = Math.min(500, set.n - s);
    right += noGrad(() =>
      tidy(() => {
        const x = networkInput(set.images.subarray(s * per, (s + m) * per), m, set);
        const pred = net.forward(x).argmax(-1).toArray();
        return pred.reduce((a, p, i) => a + (p === set.labels![s + i] ? 1 : 0), 0);
      }),
    );
  }
  return right / set.n;
}

/** Trains the feature network on labelled images; returns it in eval mode. */
export function trainFeatureNet(train: ImageSet, o: FeatureTrainOptions): FeatureNet {
  if (!train.labels) throw new Error('the feature network trains on labelled images');
  const classes = maxOf(train.labels) + 1;
  const gen = new TorchGenerator(o.seed);
  const { channels, height, width } = train;
  const net = new FeatureNet({ channels, height, width, classes }, gen);
  const opt = new AdamW(net.parameters(), { lr: o.lr, weightDecay: 1e-4 });
  const schedule = {
    kind: 'cosine' as const,
    lr: o.lr,
    warmup: 50,
    total: o.steps,
    minLr: o.lr / 20,
  };
  const per = channels * height * width;
  const labels = Int32Array.from(train.labels);
  for (let step = 1; step <= o.steps; step++) {
    const idx = gen.randint(0, train.n, [o.batch]).toArray();
    const imgs = new Uint8Array(o.batch * per);
    for (const [b, i] of idx.entries())
      imgs.set(train.images.subarray(i * per, (i + 1) * per), b * per);
    const y = Int32Array.from(idx, (i) => labels[i]!);
    const loss = optimiseStep(
      () =>
        crossEntropy(
          net.forward(networkInput(imgs, o.batch, train)), // [B, classes]
          tensor(y, [o.batch], 'int32').to('int64'),
        ),
      opt,
      { lr: learningRate(schedule, step), clip: 1 },
    );
    o.log?.(step, loss);
  }
  return net.eval();
}

/** Writes the network and its measured accuracy to `dir` (claimed first; --force to replace). */
export function saveFeatureNet(
  dir: string,
  net: FeatureNet,
  meta: Omit<SavedFeatureNet['config'], keyof FeatureNetConfig>,
  force: boolean,
): void {
  claimOutDir(dir, FEATURE_FOLDER, force);
  replaceDirAtomic(dir, (tmp) => {
    saveSafetensors(join(tmp, FEATURE_FILES.weights), net.stateDict(), { format: 'sjd-features' });
    writeJsonAtomic(join(tmp, FEATURE_FILES.config), { ...net.config, ...meta });
    writeJsonAtomic(join(tmp, FEATURE_FILES.manifest), { written: new Date().toISOString() });
  });
}

/** Reads a feature network folder written by saveFeatureNet. */
export function loadFeatureNet(dir: string): {
  net: FeatureNet;
  config: SavedFeatureNet['config'];
} {
  const path = join(dir, FEATURE_FILES.config);
  if (!existsSync(path) || !existsSync(join(dir, FEATURE_FILES.weights)))
    throw new Error(
      `${dir}: not a feature network folder (no ${FEATURE_FILES.config} and ${FEATURE_FILES.weights})`,
    );
  const config = JSON.parse(readFileSync(path, 'utf8')) as SavedFeatureNet['config'];
  const net = new FeatureNet(config, new TorchGenerator(0)).eval();
  net.loadStateDict(loadSafetensors(join(dir, FEATURE_FILES.weights)).tensors);
  return { net, config };
}
