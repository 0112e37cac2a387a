// Text at the cpu size (DiT, 4 layers, width 128, batch 32 x 256 characters): (a) the bare
// network's training step in sjd against the same DiT in PyTorch, alternating in blocks;
// (b) the full SJD step (1-D Gaussian W, sigma_W = 1.5: corruption, forward, backward, AdamW)
// against the bare network step, in the same process: the process's overhead; (c) sampling
// characters/s (Alg. 2, 64 NFE, 32 samples) against the network passes of the same run: the
// sampler's overhead. The training step (a) in float32 and with the network at bfloat16
// (precision.ts, autocast), both against PyTorch's float32 step of the same run; (d) sampling at
// the defaults (auto-precision.ts) against float32, in the same process.
import type { PrecisionSetting } from '../src/model/auto-precision.js';
import { sampleTimes } from '../src/process/index.js';
import { loadTextModel } from '../src/tasks/text/load.js';
import { textConfig } from '../src/tasks/text/presets.js';
import { sampleText } from '../src/tasks/text/sample.js';
import { TextTask } from '../src/tasks/text/task.js';
import { AdamW, TorchGenerator } from '../src/torch/index.js';
import { buildModel, buildProcess } from '../src/train/build.js';
import { sjdLoss } from '../src/train/sjd-loss.js';
import { crossEntropyStep, optimiseStep } from '../src/train/step.js';
import { defaultAgainstFloat32, interleaved, networkShare, precisionRows } from './reference.js';
import { type BenchResult, register } from './registry.js';

function setup(precision?: 'bfloat16') {
  const words = 'the state of the union is strong and the people are free ';
  const text = words.repeat(Math.ceil(40_000 / words.length));
  const task = new TextTask(
    { train: text, valid: text.slice(0, 4000), test: text.slice(0, 4000), source: 'bench' },
    { length: 256, evalWindows: 8, evalSamples: 4, evalNfe: 8, evalTemperature: 1 },
  );
  const config = textConfig({ size: 'cpu', process: 'sjd', bandwidth: 1.5 });
  const gen = new TorchGenerator(0);
  const model = buildModel(task, { ...config.model, precision }, gen);
  const proc = buildProcess(task, config.process);
  return { task, config, gen, model, proc, B: config.batch, L: config.length };
}

/** One bare training step of the DiT on fixed inputs (what the PyTorch reference does). */
function bareStep(s: ReturnType<typeof setup>, opt: AdamW): () => void {
  const { gen, model, B, L } = s;
  const y = gen.randn([B, L, s.config.model.anchorDim]);
  const t = gen.rand([B]);
  const onAnchor = gen.rand([B, L]).lt(0.5);
  const targets = gen.randint(0, 27, [B, L]);
  return () => {
    crossEntropyStep(() => model.forward(y, t, onAnchor), targets, opt, { clip: 1 });
  };
}

register('text-train-step', () => {
  const s = setup();
  const m = s.config.model;
  const stepAt = (precision?: 'bfloat16') => {
    const at = setup(precision);
    return bareStep(at, new AdamW(at.model.parameters(), { lr: 1e-3 }));
  };
  return precisionRows(
    stepAt,
    {
      model: 'dit',
      dim: m.width,
      anchorDim: m.anchorDim,
      heads: m.heads,
      mlpHidden: m.mlpHidden,
      depth: m.depth,
      rotary: m.rotary === true,
      length: s.L,
      classes: 27,
      batch: s.B,
    },
    5,
    4,
    { name: 'tokens_per_s', count: s.B * s.L },
  );
});

register(
  'text-sjd-step',
  (): BenchResult => {
    const s = setup();
    const opt = new AdamW(s.model.parameters(), { lr: 1e-3 });
    const bare = bareStep(s, opt);
    const full = () => {
      optimiseStep(
        () => {
          const { x0 } = s.task.batch(s.B, s.gen);
          const t = sampleTimes(s.B, s.proc.T, 'antithetic', s.gen);
          return sjdLoss(s.model, s.proc, x0, t, s.gen);
        },
        opt,
        { clip: 1 },
      );
    };
    const r = interleaved(full, bare, 8);
    return { ...r, tokens_per_s: (s.B * s.L * 1000) / r.sjd_ms };
  },
  'the bare network step',
);

register(
  'text-sample-64nfe',
  (): BenchResult => {
    const s = setup();
    s.model.eval();
    const n = 32;
    const draw = () =>
      sampleText(s.model, s.proc, { n, nfe: 64, temperature: 1, seed: 0, batch: n });
    const [r] = networkShare(s.model, draw, 3);
    return { ...r, chars_per_s: (n * s.L * 1000) / r.sjd_ms };
  },
  'the network passes of the same run',
);

register(
  'text-sample-auto',
  (): BenchResult => {
    // the shipped model, 32 texts at NFE 64 at the default precision (auto-precision.ts) against
    // float32: rounds interleaved, the same draws
    const n = 32;
    const at = (precision: PrecisionSetting) => {
      const { model, process: proc } = loadTextModel(undefined, { precision });
      return () => {
        sampleText(model, proc, { n, nfe: 64, temperature: 0.7, seed: 0, batch: n });
      };
    };
    return defaultAgainstFloat32('text', at, { name: 'chars_per_s', count: n * 256 });
  },
  'the same sampling in float32',
);
