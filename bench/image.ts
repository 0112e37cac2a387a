// The image U-Net's training step (forward, cross-entropy, backward, clip, AdamW) in sjd against
// the same network in Debian's PyTorch (bench/torch_ref.py UNet), rounds interleaved, medians:
// the cpu size on Fashion-MNIST's 28 x 28 gray images at 16 levels, batch 32, and at the paper's
// 256 levels, batch 64 (the 256-level comparison's setting, where a step's activations and logits
// are buffers over 32 MiB: native/cpu_allocator.cc keeps them, PyTorch's allocator maps them
// afresh). And sampling at 16 levels (the default process, blur2d SJD, under Alg. 2 at 64 NFE,
// 32 images) and at 256 (CADD, 64 images at 32 NFE, under Alg. 2 and under the exact ancestral
// step, the 256-level comparison's sampler) against the network passes of the same run: the
// sampler's overhead.

import type { PrecisionSetting } from '../src/model/auto-precision.js';
import { UNetDenoiser } from '../src/model/unet.js';
import { type ProcessName, valueAnchors } from '../src/process/index.js';
import type { SamplerName } from '../src/sampling/index.js';
import {
  IMAGE_SIZES,
  ImageTask,
  imageConfig,
  loadImageModel,
  sampleImages,
  syntheticImages,
} from '../src/tasks/image/index.js';
import { AdamW, TorchGenerator } from '../src/torch/index.js';
import { buildModel, buildProcess } from '../src/train/build.js';
import { crossEntropyStep } from '../src/train/step.js';
import { alternate, defaultAgainstFloat32, networkShare, precisionRows } from './reference.js';
import { type BenchResult, register } from './registry.js';

/** The cpu U-Net on 28 x 28 gray images at `levels`, batch B. */
function unetAt(levels: number, B: number) {
  const { arch: _, size: __, ...m } = IMAGE_SIZES.cpu!.model;
  const g = { height: 28, width: 28, channels: 1, classes: levels };
  return { m, g, B, L: g.height * g.width * g.channels };
}
export const UNET = unetAt(16, 32);
const UNET_256 = unetAt(256, 64);

/** One training step of the U-Net (at `precision`) on fixed inputs, as a closure. */
export function unetStep(precision?: 'bfloat16', net = UNET): () => void {
  const { m, g, B, L } = net;
  const gen = new TorchGenerator(0);
  const model = new UNetDenoiser(
    { ...m, ...g, precision },
    gen,
    valueAnchors(g.classes).to('float32'),
  );
  const opt = new AdamW(model.parameters(), { lr: 1e-3 });
  const y = gen.randn([B, L, m.anchorDim]);
  const t = gen.rand([B]);
  const onAnchor = gen.rand([B, L]).lt(0.5);
  const targets = gen.randint(0, g.classes, [B, L]);
  return () => {
    crossEntropyStep(() => model.forward(y, t, onAnchor), targets, opt, { clip: 1 });
  };
}

register('image-train-step', () => {
  const { m, g, B, L } = UNET;
  return precisionRows(
    (p?: 'bfloat16') => unetStep(p),
    { model: 'unet', ...m, ...g, batch: B, length: L },
    5,
    3,
    { name: 'images_per_s', count: B },
  );
});

register('image-train-step-256', async (): Promise<BenchResult> => {
  const { m, g, B, L } = UNET_256;
  const step = unetStep(undefined, UNET_256);
  const r = await alternate(step, { model: 'unet', ...m, ...g, batch: B, length: L }, 3, 3);
  return { ...r, images_per_s: (B * 1000) / r.sjd_ms };
});

/** Sampling n untrained-model images at `levels` by `process` under `sampler` at `nfe`, against its passes. */
function sampleShare(
  levels: number,
  process: ProcessName,
  n: number,
  nfe: number,
  sampler: SamplerName = 'sjd',
): BenchResult {
  const set = syntheticImages({ n: 64, channels: 1, height: 28, width: 28, levels });
  const task = new ImageTask(set, set, { evalSize: 8 });
  const config = imageConfig(task.geometry, { size: 'cpu', process });
  const model = buildModel(task, config.model, new TorchGenerator(0));
  const proc = buildProcess(task, config.process);
  model.eval();
  const draw = () =>
    sampleImages(model, proc, task.geometry, { n, nfe, seed: 0, batch: n, sampler });
  const [r] = networkShare(model, draw, 3);
  return { ...r, images_per_s: (n * 1000) / r.sjd_ms };
}

register(
  'image-sample-64nfe',
  () => sampleShare(16, 'sjd', 32, 64),
  'the network passes of the same run',
);

register(
  'image-sample-256',
  () => sampleShare(256, 'hybrid', 64, 32),
  'the network passes of the same run',
);

register(
  'image-sample-256-ancestral',
  () => sampleShare(256, 'hybrid', 64, 32, 'ancestral'),
  'the network passes of the same run',
);

register(
  'image-sample-auto',
  (): BenchResult => {
    // the shipped model, 32 images at NFE 64 at the default precision (auto-precision.ts)
    // against float32: rounds interleaved, the same draws
    const n = 32;
    const at = (precision: PrecisionSetting) => {
      const { model, process: proc, geometry } = loadImageModel(undefined, precision);
      return () => {
        sampleImages(model, proc, geometry, { n, nfe: 64, seed: 0, batch: n });
      };
    };
    return defaultAgainstFloat32('image', at, { name: 'images_per_s', count: n });
  },
  'the same sampling in float32',
);
