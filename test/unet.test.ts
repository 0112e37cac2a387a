// The image U-Net (src/model/unet.ts): its layout of tokens as a feature map, that it
// starts at zero logits (zero-initialised output) with identity residual blocks, that gradients
// reach every parameter, and that Debian's PyTorch computes the same logits from the same
// weights with the same network written in Python (bench/torch_ref.py).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UNetDenoiser } from '../src/model/unet.js';
import { valueAnchors } from '../src/process/index.js';
import * as torch from '../src/torch/index.js';
import { pytorchForward } from './torch-ref.js';

const cfg = {
  height: 6,
  width: 5,
  channels: 2,
  classes: 4,
  anchorDim: 8,
  anchors: 'fixed' as const,
  base: 8,
  mults: [1, 2],
  blocks: 1,
  heads: 2,
};
const L = cfg.height * cfg.width * cfg.channels;

const build = (seed: number, c: typeof cfg & { attention?: number[] } = cfg) =>
  new UNetDenoiser(c, new torch.TorchGenerator(seed), valueAnchors(c.classes).to('float32'));

/** Every parameter moved off its initial value (so even the zero-initialised convs matter). */
const perturb = (model: UNetDenoiser, gen: torch.TorchGenerator) =>
  torch.noGrad(() => {
    for (const p of model.parameters()) p.add_(gen.randn(p.shape).mul(0.1));
  });

test('a fresh U-Net gives zero logits of shape [B, H W C, K] (zero-initialised output)', () => {
  const model = build(1);
  const gen = new torch.TorchGenerator(2);
  const y = gen.randn([3, L, cfg.anchorDim]);
  const logits = torch.noGrad(() => model.forward(y, gen.rand([3]), gen.rand([3, L]).lt(0.5)));
  assert.deepEqual(logits.shape, [3, L, cfg.classes]);
  assert.equal(logits.abs().amax().item(), 0);
  // stored [B, L, K] (the out convolution's output channels-last): a site's K values are one
  // row of memory, as the samplers read them
  assert.deepEqual(logits.view([3 * L, cfg.classes]).shape, [3 * L, cfg.classes]);
  assert.throws(
    () => model.forward(gen.randn([1, L - 1, cfg.anchorDim]), gen.rand([1])),
    /59 tokens for a 6 x 5 x 2 image/,
  );
  assert.throws(
    () => new UNetDenoiser({ ...cfg, heads: 3 }, new torch.TorchGenerator(0), valueAnchors(4)),
    /16 channels at the lowest level do not split into 3 heads/,
  );
});

test("a token's logits depend on its own site and channel through the layout (h, w, c)", () => {
  const model = build(3);
  const gen = new torch.TorchGenerator(4);
  perturb(model, gen);
  // Changing the state of one token changes the logits of its own channel at its site.
  const y = gen.randn([1, L, cfg.anchorDim]);
  const t = torch.tensor([0.5], [1]);
  const base = torch.noGrad(() => model.forward(y, t));
  const site = 2 * cfg.width + 3; // row 2, column 3
  const token = site * cfg.channels + 1; // channel 1
  const y2 = y.clone();
  torch.noGrad(() => y2.select(1, token).add_(5));
  const moved = torch
    .noGrad(() => model.forward(y2, t))
    .sub(base)
    .abs()
    .sum([-1]); // [1, L]
  assert.ok(moved.select(1, token).item() > 0);
});

test('gradients of the cross-entropy reach every parameter', () => {
  const model = build(5);
  const gen = new torch.TorchGenerator(6);
  perturb(model, gen);
  const y = gen.randn([2, L, cfg.anchorDim]);
  const logits = model.forward(y, gen.rand([2]), gen.rand([2, L]).lt(0.5));
  torch
    .crossEntropy(logits.reshape([2 * L, cfg.classes]), gen.randint(0, cfg.classes, [2 * L]))
    .backward();
  for (const [name, p] of model.namedParameters())
    assert.ok(p.grad && p.grad.abs().sum().item() > 0, `no gradient reaches ${name}`);
});

for (const attention of [undefined, [1, 2]])
  test(`PyTorch computes the same logits from the same weights (bench/torch_ref.py UNet, attention ${attention ?? 'at the lowest level'})`, () => {
    const c = { ...cfg, attention };
    const model = build(7, c).eval();
    const gen = new torch.TorchGenerator(8);
    perturb(model, gen);
    const inputs = {
      y: gen.randn([2, L, cfg.anchorDim]),
      t: gen.rand([2]),
      on_anchor: gen.rand([2, L]).lt(0.3),
    };
    const theirs = pytorchForward(model.stateDict(), inputs, { ...c, model: 'unet' });
    const ours = torch.noGrad(() => model.forward(inputs.y, inputs.t, inputs.on_anchor));
    assert.deepEqual(theirs.shape, ours.shape);
    const scale = ours.abs().amax().item();
    assert.ok(scale > 0.1, `logits of scale ${scale}`);
    const diff = theirs.sub(ours).abs().amax().item();
    assert.ok(diff < 1e-4 * scale, `max |logits difference| ${diff} at scale ${scale}`);
  });

test('attention at the levels named by downsampling factor, and a factor no level has refused', () => {
  const count = (m: UNetDenoiser) =>
    m
      .namedParameters()
      .filter(
        ([n]) =>
          /\.attn\.qkv\.weight$/.test(n) || (/^mid\.1\./.test(n) && n.endsWith('qkv.weight')),
      ).length;
  const lowest = count(build(1)); // level 1: 1 down + 2 up blocks, and the middle
  const both = count(build(1, { ...cfg, attention: [1, 2] })); // and level 0's 1 + 2
  assert.equal(both - lowest, 3);
  assert.throws(
    () => build(1, { ...cfg, attention: [4] }),
    /unet: attention at downsampling factor 4: the levels have 1, 2/,
  );
});
