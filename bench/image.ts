// The image U-Net's training step (forward, cross-entropy, backward, clip, AdamW) in sjd against
// the same network in Debian's PyTorch (bench/torch_ref.py UNet), rounds interleaved, medians:
// the cpu size on Fashion-MNIST's 28 x 28 gray images at 16 levels, batch 32. And sampling at
// that size (the default process, blur2d SJD, under Alg. 2 at 64 NFE, 32 images) against the
// network passes of the same run: the sampler's overhead.
import { UNetDenoiser } from '../src/model/unet.js';
import { valueAnchors } from '../src/process/index.js';
import {
  IMAGE_SIZES,
  ImageTask,
  imageConfig,
  sampleImages,
  syntheticImages,
} from '../src/tasks/image/index.js';
import { AdamW, TorchGenerator } from '../src/torch/index.js';
import { buildModel, buildProcess } from '../src/train/build.js';
import { crossEntropyStep } from '../src/train/step.js';
import { alternate, interleaved, networkShare } from './reference.js';
import { type BenchResult, register } from './registry.js';

// The cpu U-Net on 28 x 28 gray images at 16 levels, batch 32.
const UNET = (() => {
  const { arch: _, size: __, ...m } = IMAGE_SIZES.cpu!.model;
  const g = { height: 28, width: 28, channels: 1, classes: 16 };
  return { m, g, B: 32, L: g.height * g.width * g.channels };
})();

/** One training step of the U-Net (at `precision`) on fixed inputs, as a closure. */
function unetStep(precision?: 'bfloat16'): () => void {
  const { m, g, B, L } = UNET;
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

register('image-train-step', async (): Promise<BenchResult> => {
  const { m, g, B, L } = UNET;
  const r = await alternate(unetStep(), { model: 'unet', ...m, ...g, batch: B, length: L }, 5, 3);
  return { ...r, images_per_s: (B * 1000) / r.sjd_ms };
});

register(
  'image-train-step-bf16',
  (): BenchResult => {
    const r = interleaved(unetStep('bfloat16'), unetStep(), 5);
    return { ...r, images_per_s: (UNET.B * 1000) / r.sjd_ms };
  },
  'the same step in float32',
);

register(
  'image-sample-64nfe',
  (): BenchResult => {
    const set = syntheticImages({ n: 64, channels: 1, height: 28, width: 28, levels: 16 });
    const task = new ImageTask(set, set, { evalSize: 8 });
    const config = imageConfig(task.geometry, { size: 'cpu' });
    const model = buildModel(task, config.model, new TorchGenerator(0));
    const proc = buildProcess(task, config.process);
    model.eval();
    const n = 32;
    const draw = () =>
      sampleImages(model, proc, task.geometry, { n, nfe: 64, seed: 0, batch: n, sampler: 'sjd' });
    const [r] = networkShare(model, draw, 3);
    return { ...r, images_per_s: (n * 1000) / r.sjd_ms };
  },
  'the network passes of the same run',
);
