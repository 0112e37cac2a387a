// Cross-checks against Debian's PyTorch (python3-torch): our safetensors files are read by a
// Python reader that follows the format's spec, the same weights give the same logits in
// PyTorch's model, and PyTorch's files load back here.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { TokenClassifier } from '../src/model/token-classifier.js';
import * as torch from '../src/torch/index.js';
import { tempDir } from './tmp.js';
import { pytorchForward, ref } from './torch-ref.js';

test('PyTorch reads our safetensors and computes the same logits from the same weights', () => {
  const cfg = { length: 9, dim: 32, depth: 2, heads: 4, mlpHidden: 64, classes: 7 };
  const gen = new torch.TorchGenerator(11);
  const model = new TokenClassifier(7, cfg, gen).eval();
  const tokens = gen.randint(0, 7, [3, 9]);
  const theirs = pytorchForward(model.stateDict(), { tokens }, { ...cfg, vocab: 7 });
  const ours = torch.noGrad(() => model.forward(tokens));
  assert.deepEqual(theirs.shape, [3, 9, 7]);
  const diff = theirs.sub(ours).abs().amax().item();
  assert.ok(diff < 1e-5, `max |logits difference| ${diff}`);
});

test("torch_ref.py flops counts a token transformer's forward by its closed form", () => {
  // L = 4 tokens, d = 8, one block with an MLP of 16, 3 classes: qkv 2·L·d·3d, q k^T and att v
  // 2·2·L²·d, the attention's projection 2·L·d², the MLP 2·2·L·d·16, the head 2·L·d·3
  const cfg = { length: 4, dim: 8, depth: 1, heads: 2, mlpHidden: 16, classes: 3 };
  const { length: L, dim: d } = cfg;
  const flops = 2 * L * d * 3 * d + 4 * L * L * d + 2 * L * d * d + 4 * L * d * 16 + 2 * L * d * 3;
  const out = execFileSync('/usr/bin/python3', [
    ref,
    'flops',
    '--config',
    JSON.stringify({ ...cfg, vocab: 5 }),
  ]);
  const params = new TokenClassifier(5, cfg, new torch.TorchGenerator(0))
    .parameters()
    .reduce((n, p) => n + p.numel, 0);
  assert.deepEqual(JSON.parse(out.toString()), { forward_flops: flops, params });
});

test('safetensors round trip keeps names, dtypes, shapes, values and metadata; bad files get one-line errors', () => {
  const dir = tempDir('sjd-st-');
  const path = join(dir, 'a.safetensors');
  const tensors = {
    f32: torch.tensor([1.5, -2], [2]),
    f64: torch.tensor([Math.PI], [1, 1], 'float64'),
    i64: torch.tensor([2 ** 40, -1], [2], 'int64'),
    b: torch.tensor([1, 0, 1], [3], 'bool'),
    h: torch.tensor([0.5, 2], [2]).to('float16'),
    empty: torch.zeros([0, 3]),
  };
  torch.saveSafetensors(path, tensors, { step: '12' });
  const back = torch.loadSafetensors(path);
  assert.deepEqual(back.metadata, { step: '12' });
  for (const [k, t] of Object.entries(tensors)) {
    assert.equal(back.tensors[k]!.dtype, t.dtype, k);
    assert.ok(back.tensors[k]!.equal(t), k);
  }
  const buf = readFileSync(path);
  // the file, written piece by piece, holds exactly the encoded bytes
  assert.ok(buf.equals(torch.encodeSafetensors(tensors, { step: '12' })));
  const n = Number(buf.readBigUInt64LE(0));
  assert.equal((8 + n) % 8, 0, 'header padded to 8 bytes');
  writeFileSync(join(dir, 'short'), buf.subarray(0, 4));
  assert.throws(() => torch.loadSafetensors(join(dir, 'short')), /file too short/);
  writeFileSync(join(dir, 'cut'), buf.subarray(0, buf.byteLength - 4));
  assert.throws(() => torch.loadSafetensors(join(dir, 'cut')), /lies outside the file/);
  // a folder, and a tensor whose bytes disagree with its shape: both named
  assert.throws(
    () => torch.loadSafetensors(dir),
    new RegExp(`^Error: ${dir}: is a folder, not a safetensors file$`),
  );
  const header = JSON.stringify({ w: { dtype: 'F32', shape: [128], data_offsets: [0, 256] } });
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(header.length));
  writeFileSync(join(dir, 'shape'), Buffer.concat([len, Buffer.from(header), Buffer.alloc(256)]));
  assert.throws(
    () => torch.loadSafetensors(join(dir, 'shape')),
    /shape: tensor 'w': bytes: 256 bytes for a tensor of 512/,
  );
});
