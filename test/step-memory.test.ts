// A training step's memory, estimated before any work (train/step-memory.ts): the closed form
// for the transformer, nothing for the U-Net or a config without a length, and a refusal in one
// line past twice the machine's memory on the CPU (never on a GPU, whose memory is its own).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TrainConfig } from '../src/train/config.js';
import { checkStepMemory, stepBytes } from '../src/train/step-memory.js';

const config = (length: number | undefined, arch?: 'unet') =>
  ({
    length,
    batch: 8,
    model: { arch, width: 64, depth: 2, heads: 4, loops: 3 },
  }) as unknown as TrainConfig;

test('the estimate: float32 attention scores and weights and 16 [B, L, width] tensors per layer application', () => {
  // 4 bytes x (2 x 3 layer applications) x B 8 x L 100 x (2 x 4 heads x 100 + 16 x 64)
  assert.equal(stepBytes(config(100)), 4 * 6 * 8 * 100 * (2 * 4 * 100 + 16 * 64));
  assert.equal(stepBytes(config(100, 'unet')), null);
  assert.equal(stepBytes(config(undefined)), null);
});

test('a step past twice the memory is refused in one line on the CPU, not on a GPU', () => {
  const need = stepBytes(config(100))!;
  checkStepMemory(config(100), 'cpu', need / 2); // exactly twice: taken
  assert.throws(
    () => checkStepMemory(config(100), 'cpu', need / 2.5),
    /^Error: a training step at length 100 and batch 8 would hold about [\d.]+ GB .*use a shorter --length or a smaller --batch$/,
  );
  checkStepMemory(config(100), 'cuda', 1);
});
