// Reverse trajectories as the paper's figures draw them (alg:sjd-sampling, app:sampling): the
// engine's driver runs a registered grid sampler, and the classifier it calls, once a step on the
// state at the step's start, records that state (y and which sites are committed) with its time;
// the driver's answer adds the state at t = 0. So the path is the sampler's own, step by step,
// with nothing re-simulated here. A site's commit is the first grid time at which it sits on an
// anchor: the jump fell in the step that ended there.
import type { SJDProcess } from '../process/index.js';
import type { SamplerName } from '../sampling/index.js';
import { type Classifier, type GridKind, getSampler, sample } from '../sampling/index.js';
import { type Tensor, tidy } from '../torch/index.js';

export interface ReversePathOptions {
  process: SJDProcess;
  classifier: Classifier;
  anchors: Tensor; // [K, d]
  batch: number; // B trajectories of the whole sequence
  length: number; // L sites
  sampler: SamplerName; // a grid sampler of one classifier pass a step (sjd, mdlm, ancestral)
  nfe: number; // steps
  grid: GridKind;
  seed: number;
}

export interface ReversePaths {
  B: number;
  L: number;
  d: number;
  t: Float64Array; // [S + 1] the grid, T down to 0
  y: Float64Array[]; // [S + 1] of [B * L * d]: the state at each grid time
  committed: Uint8Array[]; // [S + 1] of [B * L]
  tokens: number[]; // [B * L] the sampled tokens
}

/** The trajectories of `o.batch` reverse runs, recorded at every grid time. */
export function reversePaths(o: ReversePathOptions): ReversePaths {
  const s = getSampler(o.sampler);
  if (s.kind === 'adaptive' || s.nfePerStep !== 1)
    throw new Error(
      `reverse paths need a grid sampler of one classifier pass a step, not '${o.sampler}'`,
    );
  const t: number[] = [];
  const y: Float64Array[] = [];
  const committed: Uint8Array[] = [];
  const recording: Classifier = (state, time, sites) => {
    if (typeof time !== 'number') throw new Error('reverse paths need one time for the batch');
    t.push(time);
    y.push(Float64Array.from(state.toArray()));
    committed.push(sites.to('uint8').data() as Uint8Array);
    return o.classifier(state, time, sites);
  };
  const [B, L, d] = [o.batch, o.length, o.anchors.size(1)];
  return tidy(() => {
    const r = sample({ ...o, classifier: recording, temperature: 1, topP: 1 });
    t.push(0);
    y.push(Float64Array.from(r.y.toArray()));
    committed.push(new Uint8Array(B * L).fill(1)); // the last step commits every site
    return { B, L, d, t: Float64Array.from(t), y, committed, tokens: r.tokens.toArray() };
  });
}

/** The grid index at which site `l` of row `b` first sits on an anchor (its commit). */
export function commitIndex(p: ReversePaths, b: number, l: number): number {
  const at = b * p.L + l;
  const i = p.committed.findIndex((c) => c[at] === 1);
  return i < 0 ? p.t.length - 1 : i;
}

/** Coordinate `k` of site `l` of row `b` along the grid [S + 1]. */
export function coordinate(p: ReversePaths, b: number, l: number, k = 0): Float64Array {
  const at = (b * p.L + l) * p.d + k;
  return Float64Array.from(p.y, (yi) => yi[at]!);
}
