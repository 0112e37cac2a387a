// fig:diffusion_comparison: reverse-time trajectories of the same tokens over each model's path
// space, one panel per preset of the one SJD process (sec:connections, presets.ts): masked
// diffusion (the mask kernel: a site sits at the mask point until it jumps to its token,
// sec:conn-discrete), continuous diffusion (instant unsticking, no atoms: the state diffuses to
// the end and the last step projects it onto an anchor by argmax, sec:conn-continuous) and SJD
// (the VP kernel with a blending matrix W: the state diffuses, then a sticky jump commits it to
// an anchor, alg:sjd-sampling). The data law is a point mass at the sequence x*, so the exact
// classifier is constant (point-mass.ts) and each preset's own sampler with it is its exact
// reverse process; every panel generates x*. Anchors lie in d = 1, so a site's state is a line
// against t. Every panel runs on the same seed.
import type { TopLevelSpec } from 'vega-lite';
import { makeBlend, makeProcess, type SJDProcess } from '../process/index.js';
import { defaultSampler } from '../sampling/index.js';
import { tensor, tidy } from '../torch/index.js';
import { commitRows, type Panel, pathRows, stateAxis, timeAxis } from './path-layers.js';
import { pointMassClassifier } from './point-mass.js';
import { type ReversePaths, reversePaths } from './reverse-paths.js';

/** The figure's settings, each defined here once. */
export const DIFFUSION_COMPARISON = {
  anchors: [-1.5, -0.5, 0.5, 1.5], // E(a) for K = 4 tokens, d = 1 (the mask point is 0)
  tokens: [3, 0, 2, 1], // x*, the sequence every panel generates (L = 4 sites)
  blend: 'gauss1d-row', // SJD's W: the row-normalised 1-D Gaussian over sites
  sigmaW: 1, // its bandwidth
  nfe: 100, // steps of the uniform grid
  size: { width: 230, height: 200 }, // a panel's, in pixels
  panels: [
    { process: 'masked', title: 'masked diffusion', note: 'sits at the mask, then jumps' },
    { process: 'continuous', title: 'continuous diffusion', note: 'argmax projection at t = 0' },
    { process: 'sjd', title: 'SJD', note: 'diffuses, then sticks to an anchor' },
  ],
};

/** The preset a panel names, for the figure's sequence. */
function processOf(name: string): SJDProcess {
  const L = DIFFUSION_COMPARISON.tokens.length;
  if (name !== 'sjd') return makeProcess(name, { length: L });
  const { blend, sigmaW } = DIFFUSION_COMPARISON;
  return makeProcess('sjd', { length: L, blend: makeBlend(blend, { length: L }, sigmaW) });
}

/** One panel's trajectory: the preset's own sampler on the exact classifier, seeded `seed`. */
export function comparisonPaths(name: string, seed: number): ReversePaths {
  const { anchors, tokens, nfe } = DIFFUSION_COMPARISON;
  const proc = processOf(name);
  return tidy(() =>
    reversePaths({
      process: proc,
      classifier: pointMassClassifier(tokens, anchors.length),
      anchors: tensor(anchors, [anchors.length, 1], 'float64'), // [K, d = 1]
      batch: 1,
      length: tokens.length,
      sampler: defaultSampler(proc),
      nfe,
      grid: 'uniform',
      seed,
    }),
  );
}

/** A panel: the anchors (and the mask point), each site's path, its commit or projection. */
function panelSpec(p: ReversePaths, k: number): Panel {
  const { title, note, process } = DIFFUSION_COMPARISON.panels[k]!;
  const T = p.t[0]!;
  const x = timeAxis('t', T);
  const levels = DIFFUSION_COMPARISON.anchors.map((y, a) => ({ y, label: `E(${a})` }));
  const rules = process === 'masked' ? [...levels, { y: 0, label: 'mask' }] : levels;
  const y = stateAxis('y', rules);
  const event = process === 'continuous' ? 'terminal projection' : 'commit';
  const site = { field: 'site', type: 'nominal' as const, title: 'site' };
  return {
    title: { text: `(${'abc'[k]}) ${title}`, subtitle: note },
    ...DIFFUSION_COMPARISON.size,
    layer: [
      {
        data: { values: rules },
        mark: { type: 'rule', color: '#bbbbbb', strokeDash: [3, 3] },
        encoding: { y },
      },
      {
        data: { values: pathRows(p) },
        mark: { type: 'line', strokeWidth: 1.5, clip: true },
        encoding: { x, y, color: site, detail: { field: 'path' }, order: { field: 'i' } },
      },
      {
        data: { values: commitRows(p).map((r) => ({ ...r, event })) },
        mark: { type: 'point', size: 70, strokeWidth: 2 },
        encoding: {
          x,
          y,
          color: site,
          shape: {
            field: 'event',
            type: 'nominal',
            title: null,
            scale: { domain: ['commit', 'terminal projection'], range: ['circle', 'cross'] },
          },
        },
      },
    ],
  };
}

/** The figure: masked, continuous and SJD side by side, on the same tokens and seed. */
export async function diffusionComparisonFigure(o: { seed: number }): Promise<TopLevelSpec> {
  const { panels, tokens, anchors, nfe } = DIFFUSION_COMPARISON;
  const views = panels.map((q, k) => panelSpec(comparisonPaths(q.process, o.seed), k));
  return {
    title: {
      text: 'Reverse-time trajectories of the same tokens',
      subtitle: `x* = (${tokens.join(', ')}) over ${anchors.length} anchors in d = 1; each preset's sampler with the exact classifier, ${nfe} steps, seed ${o.seed}`,
    },
    hconcat: views,
    resolve: { scale: { color: 'shared', shape: 'shared' } },
    config: { axis: { grid: false } },
  };
}
