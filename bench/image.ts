// The image U-Net's training step (forward, cross-entropy, backward, clip, AdamW) in sjd against
// the same network in Debian's PyTorch (bench/torch_ref.py UNet), rounds interleaved, medians:
// the cpu size on Fashion-MNIST's 28 x 28 gray images at 16 levels, batch 32.
import { UNetDenoiser } from '../src/model/unet.js';
import { valueAnchors } from '../src/process/index.js';
import { IMAGE_SIZES } from '../src/tasks/image/index.js';
import { AdamW, Generator } from '../src/torch/index.js';
import { crossEntropyStep } from '../src/train/step.js';
import { alternate } from './reference.js';
import { type BenchResult, register } from './registry.js';

register('image-train-step', async (): Promise<BenchResult> => {
  const { arch: _, size: __, ...m } = IMAGE_SIZES.cpu!.model;
  const g = { height: 28, width: 28, channels: 1, classes: 16 };
  const B = 32;
  const L = g.height * g.width * g.channels;
  const gen = new Generator(0);
  const model = new UNetDenoiser({ ...m, ...g }, gen, valueAnchors(g.classes).to('float32'));
  const opt = new AdamW(model.parameters(), { lr: 1e-3 });
  const y = gen.randn([B, L, m.anchorDim]);
  const t = gen.rand([B]);
  const onAnchor = gen.rand([B, L]).lt(0.5);
  const targets = gen.randint(0, g.classes, [B, L]);
  const r = await alternate(
    () => {
      crossEntropyStep(() => model.forward(y, t, onAnchor), targets, opt, { clip: 1 });
    },
    { model: 'unet', ...m, ...g, batch: B, length: L },
    5,
    3,
  );
  return { ...r, images_per_s: (B * 1000) / r.sjd_ms };
});
