// Memory stays flat: 5,000 training steps of a small transformer (each in a tidy scope, the
// event loop turning every 50 steps as a training loop does) keep the live tensor count
// constant and resident memory within a bound after warm-up; a synchronous sampling loop does
// not grow the heap by its working set every step (native/cpu_allocator.cc).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { setImmediate as turn } from 'node:timers/promises';
import { TokenClassifier } from '../src/model/token-classifier.js';
import * as torch from '../src/torch/index.js';
import { crossEntropyStep } from '../src/train/step.js';
import { ORACLE_TOY, oracleConfigs, oracleTokens } from './oracle.js';
import { slow } from './slow.js';

/** this process's resident set now and at its peak, MB (Linux /proc) */
function resident(): { now: number; peak: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)![1]);
  return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

test('5,000 training steps: live tensors constant, RSS growth under 40 MB after warm-up', {
  skip: slow,
}, async () => {
  const gen = new torch.TorchGenerator(1);
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

test('a synchronous 256-step sampling loop over 5,000 rows: peak resident memory grows under 600 MB', () => {
  // the oracle's hybrid sampler: under 10 MB of tensors live between steps, ~15 MB within one;
  // with c10's posix_memalign buffers in the tuned heap it grew about 12 MB a step (to 3.4 GB)
  // in some runs and not others (this test failed 1 run in 4 with that addon); now 280 MB peak
  const [, proc, sampler] = oracleConfigs()[0]!;
  const before = resident().now;
  oracleTokens(proc, ORACLE_TOY, { batch: 5000, nfe: 256, grid: 'uniform', seed: 1, sampler });
  const growth = resident().peak - before;
  assert.ok(growth < 600, `peak resident memory grew ${growth.toFixed(0)} MB`);
});
