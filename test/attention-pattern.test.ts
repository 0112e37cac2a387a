// Attention restricted to the constraint graph (src/model/attention-pattern.ts, the bias of
// MultiHeadSelfAttention) and weight-tied looping (Backbone loops): with 'peers' every query
// attends exactly itself and its 20 Sudoku peers, with 'typed' each head exactly its relation's
// cells; 'dense' is the old computation bit for bit; patterns are derived (no state-dict entry);
// looping applies the same blocks again, its head readable after every loop (deep supervision);
// configs take the fields with bounds and default to
// dense; tiny 'peers' and 'typed' denoisers train without NaN and fit a batch.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attentionBias } from '../src/model/attention-pattern.js';
import { Denoiser, type DenoiserConfig } from '../src/model/denoiser.js';
import {
  boxOf,
  colOf,
  generatedPairs,
  PEERS,
  rowOf,
  SudokuTask,
} from '../src/tasks/sudoku/index.js';
import { sudokuConfig } from '../src/tasks/sudoku/presets.js';
import * as torch from '../src/torch/index.js';
import { nn, type Tensor } from '../src/torch/index.js';
import {
  crossEntropyStep,
  parseConfig,
  type TransformerChoice,
  type TransformerConfig,
  train,
} from '../src/train/index.js';
import { tempDir } from './tmp.js';

const L = 81;
const cells = Array.from({ length: L }, (_, i) => i);
const structure = [cells.map(rowOf), cells.map(colOf), cells.map(boxOf)];
const relation: ((i: number, j: number) => boolean)[] = [
  (i, j) => rowOf(i) === rowOf(j),
  (i, j) => colOf(i) === colOf(j),
  (i, j) => boxOf(i) === boxOf(j),
  (i, j) => i === j || PEERS[i]!.includes(j),
];

/** The attended keys per head and query: [H][L] sorted key lists where the weight is > 0. */
function attended(w: Tensor): number[][][] {
  const [, H] = w.shape as [number, number, number, number];
  const flat = w.select(0, 0).gt(0).to('int64').toArray(); // [H, L, L]
  return Array.from({ length: H }, (_, h) =>
    cells.map((i) => cells.filter((j) => flat[(h * L + i) * L + j] === 1)),
  );
}

const bitEqual = (a: Tensor, b: Tensor) =>
  a.shape.join() === b.shape.join() && a.eq(b).all().item() === 1;

test("'peers': every query attends exactly itself and its 20 peers, in every head", () => {
  const gen = new torch.TorchGenerator(1);
  const att = new nn.MultiHeadSelfAttention(
    32,
    4,
    0,
    gen,
    undefined,
    attentionBias('peers', structure, 4, L),
  );
  const w = att.weights(gen.randn([2, L, 32]).mul(3)); // [2, 4, 81, 81]
  assert.ok(w.sum(-1).sub(1).abs().amax().item() < 1e-5);
  for (const keys of attended(w))
    keys.forEach((k, i) => {
      assert.equal(k.length, 21);
      assert.deepEqual(
        k,
        cells.filter((j) => relation[3]!(i, j)),
      );
    });
});

test("'typed': each head attends exactly its relation's cells (row, column, box, all peers)", () => {
  const gen = new torch.TorchGenerator(2);
  const H = 8; // two heads per relation, in contiguous blocks
  const att = new nn.MultiHeadSelfAttention(
    32,
    H,
    0,
    gen,
    undefined,
    attentionBias('typed', structure, H, L),
  );
  const heads = attended(att.weights(gen.randn([1, L, 32]).mul(3)));
  heads.forEach((keys, h) => {
    const r = Math.floor(h / 2);
    keys.forEach((k, i) => {
      assert.equal(k.length, r < 3 ? 9 : 21, `head ${h} query ${i}`);
      assert.deepEqual(
        k,
        cells.filter((j) => relation[r]!(i, j)),
      );
    });
  });
});

test('patterns refuse what they cannot build, in one line naming the field', () => {
  for (const [make, message] of [
    [
      () => attentionBias('typed', structure, 6, L),
      /^model\.heads: 6 heads do not split evenly over the 4 relations/,
    ],
    [
      () => attentionBias('peers', undefined, 4, L),
      /^model\.attention 'peers' needs the task's structure/,
    ],
    [
      () => attentionBias('peers', [cells.slice(1)], 4, L),
      /^structure 0: 80 group indices for length 81$/,
    ],
  ] as const)
    assert.throws(make, (e: Error) => message.test(e.message) && !e.message.includes('\n'));
  assert.equal(attentionBias('dense', undefined, 6, L), undefined);
});

test("'dense' attention is the old computation bit for bit (with and without a mask)", () => {
  const gen = new torch.TorchGenerator(3);
  const att = new nn.MultiHeadSelfAttention(32, 4, 0, gen);
  const x = gen.randn([3, 10, 32]);
  const keys = gen
    .rand([3, 10])
    .lt(0.7)
    .logicalOr(torch.arange(0, 10).eq(0).view([1, 10]));
  // the forward as it was written before the bias existed
  const old = (mask?: Tensor) => {
    const [B, Ln] = [3, 10];
    const qkv = att.qkv.forward(x).view([B, Ln, 3, 4, 8]).permute([2, 0, 3, 1, 4]);
    const [q, k, v] = qkv.chunk(3, 0).map((t) => t.squeeze(0)) as [Tensor, Tensor, Tensor];
    let scores = q.matmul(k.transpose(-2, -1)).mul(1 / Math.sqrt(8));
    if (mask)
      scores = scores.maskedFill(mask.view([B, 1, 1, Ln]).logicalNot(), Number.NEGATIVE_INFINITY);
    const out = scores.softmax(-1).matmul(v).transpose(1, 2).reshape([B, Ln, 32]);
    return att.proj.forward(out);
  };
  assert.ok(bitEqual(att.forward(x), old()));
  assert.ok(bitEqual(att.forward(x, keys), old(keys)));
});

const tiny = (o: Partial<DenoiserConfig> = {}): DenoiserConfig => ({
  length: L,
  classes: 9,
  anchorDim: 16,
  anchors: 'learned',
  width: 32,
  depth: 2,
  heads: 4,
  mlpHidden: 64,
  structure,
  ...o,
});

test('the pattern is derived: same parameters and state-dict entries; dense = absent, bit for bit', () => {
  const build = (o: Partial<DenoiserConfig>) => new Denoiser(tiny(o), new torch.TorchGenerator(4));
  const base = build({});
  const gen = new torch.TorchGenerator(5);
  const y = gen.randn([2, L, 16]);
  const t = gen.rand([2]);
  const out = torch.noGrad(() => base.forward(y, t));
  for (const attention of ['dense', 'peers', 'typed'] as const) {
    const m = build({ attention });
    const sd = m.stateDict();
    assert.deepEqual(Object.keys(sd), Object.keys(base.stateDict()));
    for (const [k, v] of Object.entries(base.stateDict())) assert.ok(bitEqual(sd[k]!, v), k);
    const o = torch.noGrad(() => m.forward(y, t));
    assert.equal(bitEqual(o, out), attention === 'dense', attention);
  }
  // the DiT kind takes the pattern too
  const dit = new Denoiser(
    tiny({ conditioning: 'adaln', attention: 'typed' }),
    new torch.TorchGenerator(6),
  );
  assert.ok(
    torch
      .noGrad(() => dit.forward(y, t))
      .isfinite()
      .all()
      .item(),
  );
});

test('loops: the same blocks applied again, with the parameters of one pass', () => {
  const gen = () => new torch.TorchGenerator(7);
  const once = new Denoiser(tiny({ loops: 1 }), gen());
  const twice = new Denoiser(tiny({ loops: 3, attention: 'peers' }), gen());
  assert.equal(twice.numParameters(), once.numParameters());
  const b = twice.backbone;
  const h = gen().randn([2, L, 32]);
  const want = torch.noGrad(() => {
    let x = h.add(b.pos!.forward(torch.arange(0, L)));
    for (let n = 0; n < 3; n++)
      for (const blk of b.blocks) x = (blk as nn.TransformerBlock).forward(x);
    return b.head!.forward(b.lnF!.forward(x));
  });
  assert.ok(
    bitEqual(
      torch.noGrad(() => b.forward(h)),
      want,
    ),
  );
  assert.throws(
    () => new Denoiser(tiny({ loops: 0 }), gen()),
    (e: Error) => e.message === 'model.loops: 0 is not a whole number >= 1',
  );
  // the head read after every loop (deep supervision): loop k's logits are those of the same
  // weights looped k times, the last is forward's
  const y = gen().randn([2, L, 16]); // [B, L, anchorDim]
  const t = torch.tensor([0.3, 0.7], [2]);
  const each = torch.noGrad(() => twice.forwardEachLoop(y, t));
  assert.equal(each.length, 3);
  assert.ok(
    bitEqual(
      each[2]!,
      torch.noGrad(() => twice.forward(y, t)),
    ),
  );
  for (const k of [1, 2]) {
    const fewer = new Denoiser(tiny({ loops: k, attention: 'peers' }), gen());
    assert.ok(
      bitEqual(
        each[k - 1]!,
        torch.noGrad(() => fewer.forward(y, t)),
      ),
      `loop ${k}`,
    );
  }
});

test('configs: attention and loops optional (absent = dense, 1), bounded, named in errors', () => {
  const base = JSON.parse(JSON.stringify(sudokuConfig({ size: 'tiny' })));
  assert.equal((parseConfig(base, 'c.json').model as TransformerChoice).attention, undefined);
  const ok = parseConfig(
    { ...base, model: { ...base.model, attention: 'typed', loops: 2 } },
    'c.json',
  ) as TransformerConfig;
  assert.equal(ok.model.attention, 'typed');
  assert.equal(ok.model.loops, 2);
  for (const [edit, message] of [
    [{ attention: 'sparse' }, /^c\.json: model\.attention: /],
    [
      { attention: 'peers', structure: false },
      /^c\.json: model\.attention: other than 'dense' needs/,
    ],
    [{ loops: 0 }, /^c\.json: model\.loops: /],
    [{ loops: 1.5 }, /^c\.json: model\.loops: /],
  ] as const)
    assert.throws(
      () => parseConfig({ ...base, model: { ...base.model, ...edit } }, 'c.json'),
      (e: Error) => message.test(e.message) && !e.message.includes('\n'),
    );
  // deep supervision: a looped transformer trained by cross-entropy
  const deep = { ...base, deepSupervision: true, model: { ...base.model, loops: 2 } };
  assert.equal(parseConfig(deep, 'c.json').deepSupervision, true);
  assert.throws(
    () => parseConfig({ ...deep, model: base.model }, 'c.json'),
    /^Error: c\.json: deepSupervision: needs a transformer that loops its blocks \(model\.loops >= 2\)$/,
  );
  assert.throws(
    () => parseConfig({ ...deep, process: { ...deep.process, objective: 'elbo' } }, 'c.json'),
    /^Error: c\.json: deepSupervision: trains by cross-entropy, not the ELBO objective$/,
  );
});

test("tiny 'peers' and 'typed' denoisers train without NaN and fit a batch", async () => {
  const pairs = generatedPairs(16, 6);
  const task = new SudokuTask(pairs, pairs, {
    evalSize: 2,
    evalNfe: 2,
    evalSampler: 'confidence',
    augment: 'full',
  });
  for (const attention of ['peers', 'typed'] as const) {
    const c = sudokuConfig({ size: 'tiny', steps: 6 });
    const config = {
      ...c,
      model: { ...c.model, heads: 4, attention },
      evalEvery: 100,
      checkpointEvery: 100,
    };
    const r = await train(`${tempDir()}/run`, config, task, false);
    assert.equal(r.losses.length, 6);
    assert.ok(r.losses.every(Number.isFinite), `${attention}: ${r.losses}`);
  }
  // gradients reach through the pattern: a batch whose y carries its answer is fitted
  const gen = new torch.TorchGenerator(8);
  const model = new Denoiser(tiny({ attention: 'peers' }), gen);
  const targets = gen.randint(0, 9, [8, L]);
  const y = torch.embedding(gen.randn([9, 16]), targets).add(gen.randn([8, L, 16])); // [8, L, 16]
  const t = gen.rand([8]);
  const opt = new torch.AdamW(model.parameters(), { lr: 3e-3 });
  const losses = Array.from({ length: 30 }, () =>
    crossEntropyStep(() => model.forward(y, t), targets, opt),
  );
  assert.ok(losses.every(Number.isFinite));
  assert.ok(losses[29]! < 0.5 * losses[0]!, `loss ${losses[0]} -> ${losses[29]}`);
});
