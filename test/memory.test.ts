// Memory stays flat: 5,000 training steps of a small transformer (each in a tidy scope, the
// event loop turning every 50 steps as a training loop does) keep the live tensor count
// constant and resident memory within a bound after warm-up.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as turn } from 'node:timers/promises';
import { TokenClassifier } from '../src/model/token-classifier.js';
import * as torch from '../src/torch/index.js';
import { crossEntropyStep } from '../src/train/step.js';
import { slow } from './slow.js';

test('5,000 training steps: live tensors constant, RSS growth under 40 MB after warm-up', {
  skip: slow,
}, async () => {
  const gen = new torch.Generator(1);
  const cfg = { length: 16, dim: 32, depth: 2, heads: 4, mlpHidden: 64, classes: 8 };
  const model = new TokenClassifier(8, cfg, gen);
  const opt = new torch.AdamW(model.parameters(), { lr: 1e-3 });
  let rssWarm = 0;
  let liveWarm = 0;
  let loss = 0;
  for (let i = 0; i < 5000; i++) {
    if (i % 50 === 0) await turn();
    if (i === 500) {
      rssWarm = process.memoryUsage().rss;
      liveWarm = torch.memoryStats().liveTensors;
    }
    const x = gen.randint(0, 8, [16, 16]);
    const y = x.flip([1]);
    loss = crossEntropyStep(() => model.forward(x), y, opt, { clip: 1 });
    x.dispose();
    y.dispose();
  }
  await turn();
  const growth = (process.memoryUsage().rss - rssWarm) / 2 ** 20;
  assert.equal(torch.memoryStats().liveTensors, liveWarm);
  assert.ok(growth < 40, `RSS grew ${growth.toFixed(1)} MB`);
  assert.ok(loss < 0.05, `the model learned the reversal (loss ${loss})`);
});
