// nn modules against explicit computations: Linear, LayerNorm, attention (per head, with
// masks, non-causal), the pre-LN block, the parameter registry and train/eval mode.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TokenClassifier } from '../src/model/token-classifier.js';
import * as torch from '../src/torch/index.js';
import { nn } from '../src/torch/index.js';

const maxAbs = (a: torch.Tensor, b: torch.Tensor) => a.sub(b).abs().amax().item();

test('Linear is x W^T + b and initialises within +-1/sqrt(in)', () => {
  const gen = new torch.TorchGenerator(1);
  const lin = new nn.Linear(16, 4, { gen });
  const x = gen.randn([3, 16]);
  const want = x.mm(lin.weight.transpose(0, 1)).add(lin.bias!);
  assert.ok(maxAbs(lin.forward(x), want) < 1e-6);
  assert.ok(lin.weight.abs().amax().item() <= 0.25);
  assert.equal(new nn.Linear(3, 2, { bias: false, gen }).bias, null);
});

test('LayerNorm gives zero mean and unit variance per row', () => {
  const x = new torch.TorchGenerator(2).randn([5, 32], 'float32').mul(7).add(3);
  const y = new nn.LayerNorm(32).forward(x);
  assert.ok(y.mean(1).abs().amax().item() < 1e-5);
  assert.ok(y.var(1, false).sub(1).abs().amax().item() < 1e-3);
});

function attentionByHand(
  att: nn.MultiHeadSelfAttention,
  x: torch.Tensor,
  keyMask?: number[],
): torch.Tensor {
  // One batch element, one head at a time, with 2-D matrices only.
  const [, L, d] = x.shape as [number, number, number];
  const qkv = att.qkv.forward(x).select(0, 0); // [L, 3d]
  const outs: torch.Tensor[] = [];
  for (let h = 0; h < att.heads; h++) {
    const part = (k: number) => qkv.narrow(1, k * d + h * att.headDim, att.headDim); // [L, Dh]
    let s = part(0).mm(part(1).transpose(0, 1)).div(Math.sqrt(att.headDim)); // [L, L]
    if (keyMask)
      s = s.add(
        torch.tensor(
          keyMask.map((m) => (m ? 0 : -1e9)),
          [1, L],
        ),
      );
    outs.push(s.softmax(1).mm(part(2)));
  }
  return att.proj.forward(torch.cat(outs, 1)).unsqueeze(0); // [1, L, d]
}

test('attention equals the per-head computation, with and without a key mask', () => {
  const gen = new torch.TorchGenerator(3);
  const att = new nn.MultiHeadSelfAttention(24, 4, 0, gen);
  const x = gen.randn([1, 6, 24]);
  assert.ok(maxAbs(att.forward(x), attentionByHand(att, x)) < 1e-5);
  const km = [1, 1, 0, 1, 0, 1];
  const mask = torch.tensor(km, [1, 6], 'bool');
  assert.ok(maxAbs(att.forward(x, mask), attentionByHand(att, x, km)) < 1e-5);
  // [B, L, L] pair mask equal to the key mask gives the same result.
  const pair = mask.unsqueeze(1).expand([1, 6, 6]);
  assert.ok(maxAbs(att.forward(x, pair), att.forward(x, mask)) < 1e-6);
  assert.throws(
    () => att.forward(x, torch.ones([6], 'bool')),
    /mask must be \[B, L\] or \[B, L, L\]/,
  );
  assert.throws(() => new nn.MultiHeadSelfAttention(10, 3), /not divisible/);
});

test('attention is non-causal; masked keys do not influence other positions', () => {
  const gen = new torch.TorchGenerator(4);
  const att = new nn.MultiHeadSelfAttention(16, 2, 0, gen);
  const x = gen.randn([1, 5, 16]);
  const x2 = x.clone();
  x2.narrow(1, 4, 1).add_(3); // change the last position
  assert.ok(maxAbs(att.forward(x).select(1, 0), att.forward(x2).select(1, 0)) > 1e-3);
  const mask = torch.tensor([1, 1, 1, 1, 0], [1, 5], 'bool');
  assert.ok(
    maxAbs(att.forward(x, mask).narrow(1, 0, 4), att.forward(x2, mask).narrow(1, 0, 4)) < 1e-6,
  );
});

test('TransformerBlock is pre-LN residual: x + attn(ln1 x), then + mlp(ln2 .)', () => {
  const gen = new torch.TorchGenerator(5);
  const b = new nn.TransformerBlock({ dim: 16, heads: 4, mlpHidden: 32, gen });
  const x = gen.randn([2, 3, 16]);
  const h = x.add(b.attn.forward(b.ln1.forward(x)));
  const want = h.add(
    b.mlp.fc
      .forward(b.ln2.forward(h))
      .gelu()
      .matmul(b.mlp.proj.weight.transpose(0, 1))
      .add(b.mlp.proj.bias!),
  );
  assert.ok(maxAbs(b.forward(x), want) < 1e-5);
});

test('parameter registry: dotted names, state dict round trip, clear errors', () => {
  const cfg = { length: 4, dim: 8, depth: 2, heads: 2, mlpHidden: 16, classes: 3 };
  const a = new TokenClassifier(5, cfg, new torch.TorchGenerator(1));
  const names = a.namedParameters().map(([n]) => n);
  assert.ok(names.includes('embed.weight'));
  assert.ok(names.includes('backbone.blocks.1.attn.qkv.weight'));
  assert.ok(names.includes('backbone.head.bias'));
  assert.equal(
    a.numParameters(),
    names.reduce((n, k) => n + a.stateDict()[k]!.numel, 0),
  );
  const b = new TokenClassifier(5, cfg, new torch.TorchGenerator(2));
  const tokens = torch.tensor([0, 1, 2, 4], [1, 4], 'int64');
  assert.ok(maxAbs(a.forward(tokens), b.forward(tokens)) > 1e-3);
  b.loadStateDict(a.stateDict());
  assert.ok(a.forward(tokens).equal(b.forward(tokens)));
  const bad = { ...a.stateDict(), 'embed.weight': torch.zeros([2, 2]) };
  assert.throws(
    () => b.loadStateDict(bad),
    /embed.weight: shape \[2,2\] where \[5,8\] is expected/,
  );
  const { 'embed.weight': _, ...missing } = a.stateDict();
  assert.throws(() => b.loadStateDict(missing), /state dict lacks embed.weight/);
});

test('train mode applies dropout, eval mode is deterministic', () => {
  const gen = new torch.TorchGenerator(6);
  const block = new nn.TransformerBlock({ dim: 16, heads: 2, dropout: 0.5, gen });
  const x = gen.randn([1, 4, 16]);
  assert.ok(maxAbs(block.forward(x), block.forward(x)) > 1e-4);
  block.eval();
  assert.ok(block.forward(x).equal(block.forward(x)));
  assert.equal(block.attn.training, false);
});

test('rotary embedding keeps norms and makes q.k depend on the offset only', () => {
  const rot = new nn.Rotary(8, 4);
  const gen = new torch.TorchGenerator(3);
  const u = gen.randn([1, 1, 1, 4]).expand([1, 1, 8, 4]);
  const w = gen.randn([1, 1, 1, 4]).expand([1, 1, 8, 4]);
  const q = rot.apply(u); // [1, 1, 8, 4]
  const k = rot.apply(w);
  assert.ok(maxAbs(q.norm(2, [-1]), u.norm(2, [-1])) < 1e-5);
  const s = q.matmul(k.transpose(-2, -1)).reshape([8, 8]).toArray(); // s[i][j] = f(i - j)
  for (let i = 1; i < 8; i++)
    for (let j = 1; j < 8; j++) assert.ok(Math.abs(s[i * 8 + j]! - s[(i - 1) * 8 + j - 1]!) < 1e-5);
  assert.ok(Math.abs(s[0 * 8 + 1]! - s[1 * 8 + 0]!) > 1e-3, 'not symmetric in the offset');
  // position 0 is not rotated
  assert.ok(maxAbs(q.narrow(2, 0, 1), u.narrow(2, 0, 1)) < 1e-6);
});
