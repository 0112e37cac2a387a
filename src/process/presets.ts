// The presets (sec:connections, docs/design.md §1 table): one SJDProcess, four configurations,
// the processes a run names (`--process`, config.json's process.name).
//   masked      delta at a mask point, log-linear hazard            = MDLM / MD4 (sec:conn-discrete)
//   continuous  no anchor mass after 0 (instant unsticking), W = I  = VP diffusion + terminal argmax (sec:conn-continuous)
//   hybrid      VP kernel, (W, eta) = (I, 1)                        = CADD (prop:plain-hybrid)
//   sjd         VP kernel, any (W, eta)                             = blended SJD (ex:vp-matched)
import { type Blend, identity } from './blend.js';
import type { HazardSpec } from './hazard.js';
import { type ProcessConfig, SJDProcess } from './process.js';
import type { QuadratureRule } from './quadrature.js';
import { VP_DEFAULT, type VPConfig } from './vp.js';

export interface PresetOptions {
  length: number; // L
  blend?: Blend; // W (sjd only)
  eta?: number; // (sjd only)
  hazard?: HazardSpec;
  vp?: VPConfig;
  quadrature?: { rule: QuadratureRule; n: number };
  anchorWeights?: number[];
  mean?: 'embedding' | 'value';
  valueEmbedding?: 'sinusoidal' | 'anchors';
}

const DEFAULT_HAZARD: HazardSpec = { kind: 'polynomial-alpha', p: 1, eps: 1e-5 };

function base(name: string, o: PresetOptions): ProcessConfig {
  return {
    name,
    kernel: 'vp',
    vp: o.vp ?? VP_DEFAULT,
    hazard: o.hazard ?? DEFAULT_HAZARD,
    eta: 1,
    anchorWeights: o.anchorWeights,
    quadrature: o.quadrature ?? { rule: 'simpson', n: 33 },
    mean: o.mean ?? 'embedding',
    ...(o.valueEmbedding && { valueEmbedding: o.valueEmbedding }),
    finalCommit: 'sample',
  };
}

function only(name: string, o: PresetOptions, allowed: (keyof PresetOptions)[]): void {
  for (const k of ['blend', 'eta'] as const) {
    if (o[k] !== undefined && !allowed.includes(k))
      throw new Error(`process '${name}' takes no ${k === 'blend' ? 'blending matrix W' : 'eta'}`);
  }
}

export const presets: Record<string, (o: PresetOptions) => SJDProcess> = {
  masked: (o) => {
    only('masked', o, []);
    return new SJDProcess({ ...base('masked', o), kernel: 'mask' }, identity(o.length));
  },
  continuous: (o) => {
    only('continuous', o, []);
    return new SJDProcess(
      { ...base('continuous', o), hazard: { kind: 'instant' }, finalCommit: 'argmax' },
      identity(o.length),
    );
  },
  hybrid: (o) => {
    only('hybrid', o, []);
    return new SJDProcess(base('hybrid', o), identity(o.length));
  },
  sjd: (o) => new SJDProcess({ ...base('sjd', o), eta: o.eta ?? 1 }, o.blend ?? identity(o.length)),
};

/** A process by name. */
export function makeProcess(name: string, o: PresetOptions): SJDProcess {
  const make = presets[name];
  if (!make)
    throw new Error(`unknown process '${name}' (known: ${Object.keys(presets).join(', ')})`);
  return make(o);
}
