// Where a training step's time goes, op by op: libtorch's profiler (src/torch/profile.ts) around
// steps of sjd's networks, against PyTorch's legacy autograd profiler around the same network's
// steps (bench/torch_ref.py profile), on the same libtorch. One row per op among those that take
// the most self CPU time on either side (aten ops, autograd's backward nodes, PyTorch's optimiser
// range): its self time a step in sjd and in PyTorch, and its calls a step on each side; the
// `total` row sums every op's self time (the profiled step). The paper's Sudoku-size transformer
// (bench/train-step.ts) and the image U-Net at the cpu size (bench/image.ts), in float32.
import { type OpProfile, profileOps } from '../src/torch/index.js';
import { UNET, unetStep } from './image.js';
import { runReference } from './reference.js';
import { type BenchResult, type BenchRows, register } from './registry.js';
import { SUDOKU, tokenStep } from './train-step.js';

const STEPS = 3;
const WARMUP = 2;
/** Rows: the ops that take the most self time on either side. */
const TOP = 12;

/** Self time (ms) and calls a step, by op name. */
type PerStep = Map<string, { ms: number; calls: number }>;

const perStep = (ops: OpProfile[], steps: number): PerStep =>
  new Map(ops.map((o) => [o.name, { ms: o.selfUs / 1000 / steps, calls: o.calls / steps }]));

/** The rows of two profiles: the TOP ops of each by self time, and the total. */
function rows(ours: PerStep, ref: PerStep): BenchRows {
  const top = (p: PerStep) =>
    [...p]
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, TOP)
      .map(([k]) => k);
  const names = [...new Set([...top(ours), ...top(ref)])];
  const sum = (p: PerStep) => [...p.values()].reduce((s, v) => s + v.ms, 0);
  const out: BenchRows = new Map([['total', { sjd_ms: sum(ours), ref_ms: sum(ref) }]]);
  for (const name of names) {
    const [a, b] = [ours.get(name), ref.get(name)];
    const row: BenchResult = {
      sjd_ms: a?.ms ?? 0,
      ref_ms: b?.ms ?? 0,
      sjd_calls: a?.calls ?? 0,
      ref_calls: b?.calls ?? 0,
    };
    out.set(name, row);
  }
  return out;
}

/** `step` profiled over STEPS steps after WARMUP, against the reference's model of `config`. */
function profileAgainst(step: () => void, config: object): BenchRows {
  for (let i = 0; i < WARMUP; i++) step();
  const { ops } = profileOps(() => {
    for (let i = 0; i < STEPS; i++) step();
  });
  const ref = runReference([
    'profile',
    '--config',
    JSON.stringify(config),
    '--steps',
    String(STEPS),
    '--warmup',
    String(WARMUP),
  ]) as unknown as { ops: OpProfile[] };
  return rows(perStep(ops, STEPS), perStep(ref.ops, STEPS));
}

register('profile-sudoku-train-step', () => profileAgainst(tokenStep(SUDOKU), SUDOKU));

register('profile-image-train-step', () => {
  const { m, g, B, L } = UNET;
  return profileAgainst(unetStep(), { model: 'unet', ...m, ...g, batch: B, length: L });
});
