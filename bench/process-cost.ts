// Process work of one sampler step (plug-in rate and allocation, classifier-induced score,
// drift, jump) against one forward pass of the Sudoku-size denoiser (3 layers, width 384,
// 12 heads, batch 128 x 81, anchors d = 64): the paper says one to two orders of magnitude
// below the network (app:plugin). Reported as ratio = process / network.
import { Backbone } from '../src/model/backbone.js';
import * as P from '../src/process/index.js';
import { type SamplerState, sjdStep } from '../src/sampling/index.js';
import { keep, nn, noGrad, type Tensor, TorchGenerator, tidy } from '../src/torch/index.js';
import { median, timeMs } from './reference.js';
import { type BenchResult, register } from './registry.js';

const [B, L, K, d] = [128, 81, 9, 64];

function setup() {
  const gen = new TorchGenerator(0);
  const inProj = new nn.Linear(d, 384, { gen });
  const net = new Backbone(
    { length: L, dim: 384, depth: 3, heads: 12, mlpHidden: 1536, classes: K },
    gen,
  ).eval();
  const anchors = keep(gen.randn([K, d], 'float64'));
  const y = keep(gen.randn([B, L, d], 'float64'));
  const logits = keep(gen.randn([B, L, K]).mul(3));
  const state: SamplerState = {
    y,
    committed: keep(gen.rand([B, L]).lt(0.3)),
    tokens: keep(gen.randint(0, K, [B, L])),
  };
  return { gen, inProj, net, anchors, state, logits };
}

function costBench(proc: P.SJDProcess): BenchResult {
  const s = setup();
  const network = () =>
    tidy(() => noGrad(() => s.net.forward(s.inProj.forward(s.state.y.to('float32'))).dispose()));
  const fixed = (): Tensor => s.logits; // the process step without the network
  const ctx = { process: proc, classifier: fixed, anchors: s.anchors, temperature: 1, topP: 1 };
  const processStep = () =>
    tidy(() => noGrad(() => sjdStep(ctx, s.state, 0.5, 0.49, false, s.gen)));
  network();
  processStep();
  const net: number[] = [];
  const proc_: number[] = [];
  for (let r = 0; r < 5; r++) {
    net.push(timeMs(network));
    for (let k = 0; k < 3; k++) proc_.push(timeMs(processStep));
  }
  return { sjd_ms: median(proc_), ref_ms: median(net) };
}

const NETWORK = 'one forward pass of the Sudoku-size denoiser';
register(
  'process-step-eta1-sudokuW',
  () => costBench(P.makeProcess('sjd', { length: L, blend: P.sudoku(1.5) })),
  NETWORK,
);
register(
  'process-step-eta0.5-simpson33',
  () =>
    costBench(
      P.makeProcess('sjd', { length: L, eta: 0.5, quadrature: { rule: 'simpson', n: 33 } }),
    ),
  NETWORK,
);
register(
  'process-step-eta0.5-midpoint32',
  () =>
    costBench(
      P.makeProcess('sjd', { length: L, eta: 0.5, quadrature: { rule: 'midpoint', n: 32 } }),
    ),
  NETWORK,
);
