// fig:eta-commit: the effect of eta on the state-dependent DHM target lambdahat_t(y, a)
// (eq:dhm-target) under a single anchor a = 1 in d = 1, one panel per eta. Each panel is a heat
// map of log10 lambdahat over (t, y), one pixel per grid cell (heat-map.ts), from the engine (hazard-surface.ts: the closed form at eta = 1, the
// quadrature of app:plugin below, whose mixture has the variance v_t(tau) of
// eq:app-vp-matched-convolution), with reverse trajectories of that one-site SJD drawn over it:
// the data law is the point mass at the anchor, so the exact classifier is constant
// (point-mass.ts) and Alg. 2 (alg:sjd-sampling) with it is the exact reverse process. Circles
// mark the commit events. Every panel starts from the same prior draws (the run's seed).
import type { TopLevelSpec } from 'vega-lite';
import { makeProcess } from '../process/index.js';
import { tensor, tidy } from '../torch/index.js';
import { type HazardSurface, hazardSurface } from './hazard-surface.js';
import { heatMapImage } from './heat-map.js';
import { commitRows, type Panel, pathRows, stateAxis, timeAxis, Y_RANGE } from './path-layers.js';
import { pointMassClassifier } from './point-mass.js';
import { type ReversePaths, reversePaths } from './reverse-paths.js';

/** The figure's settings, each defined here once. */
export const ETA_COMMIT = {
  etas: [0.25, 0.5, 0.75, 1], // panels (a) to (d)
  anchor: 1, // E(a), d = 1
  trajectories: 6, // reverse runs drawn in each panel
  sampler: 'sjd' as const, // Alg. 2
  nfe: 200, // steps of the uniform grid
  size: { width: 240, height: 200 }, // a panel's, in pixels: the heat map has one cell a pixel
  scheme: 'viridis' as const, // the heat map's colours (a Vega scheme)
  log10Range: [-2, 2.5] as [number, number], // the colour scale of log10 lambdahat, clamped
};

export interface EtaCommitPanel {
  eta: number;
  surface: HazardSurface; // lambdahat_t(y, a) at the cells' midpoints
  paths: ReversePaths;
}

/** Midpoints of n equal cells over [lo, hi]. */
function midpoints(lo: number, hi: number, n: number): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => lo + ((i + 0.5) * (hi - lo)) / n);
}

/** One panel's data: the target over the grid, and the trajectories of the run seeded `seed`. */
export function etaCommitPanel(eta: number, seed: number): EtaCommitPanel {
  const c = ETA_COMMIT;
  const proc = makeProcess('sjd', { length: 1, eta });
  const [lo, hi] = Y_RANGE;
  const t = midpoints(0, proc.T, c.size.width);
  const surface = hazardSurface(proc, c.anchor, t, midpoints(lo, hi, c.size.height));
  const paths = tidy(() =>
    reversePaths({
      process: proc,
      classifier: pointMassClassifier([0], 1),
      anchors: tensor([c.anchor], [1, 1], 'float64'), // [K = 1, d = 1]
      batch: c.trajectories,
      length: 1,
      sampler: c.sampler,
      nfe: c.nfe,
      grid: 'uniform',
      seed,
    }),
  ); // (tidy frees the anchors)
  return { eta, surface, paths };
}

/** A panel: the heat map, the anchor, the trajectories up to their commit events (circles). */
async function panelSpec(p: EtaCommitPanel, k: number): Promise<Panel> {
  const c = ETA_COMMIT;
  const T = p.paths.t[0]!; // the grid starts at T
  const x = timeAxis('t', T);
  const url = await heatMapImage(p.surface, Math.log10, c.scheme, c.log10Range);
  const [lo, hi] = Y_RANGE;
  return {
    title: `(${'abcd'[k] ?? k + 1}) η = ${p.eta.toFixed(2)}`,
    ...c.size,
    layer: [
      {
        data: { values: [{ t0: T, t1: 0, y0: lo, y1: hi, url }] },
        mark: { type: 'image', aspect: false, aria: false },
        encoding: {
          x: timeAxis('t0', T),
          x2: { field: 't1' },
          y: stateAxis('y0'),
          y2: { field: 'y1' },
          url: { field: 'url' },
        },
      },
      {
        // invisible: it carries the colour legend of the heat map
        data: { values: c.log10Range.map((log10) => ({ log10, t: T, y: lo })) },
        mark: { type: 'point', opacity: 0 },
        encoding: {
          x,
          y: stateAxis('y'),
          color: {
            field: 'log10',
            type: 'quantitative',
            title: 'log10 λ̂_t(y, a)',
            scale: { scheme: c.scheme, domain: c.log10Range, clamp: true },
          },
        },
      },
      {
        data: { values: [{ y: c.anchor }] },
        mark: { type: 'rule', color: 'white', strokeDash: [2, 3], opacity: 0.6 },
        encoding: { y: stateAxis('y') },
      },
      {
        data: { values: pathRows(p.paths, { untilCommit: true }) },
        mark: { type: 'line', color: 'white', strokeWidth: 1, opacity: 0.9, clip: true },
        encoding: { x, y: stateAxis('y'), detail: { field: 'path' }, order: { field: 'i' } },
      },
      {
        data: { values: commitRows(p.paths) },
        mark: { type: 'point', shape: 'circle', color: '#e4572e', size: 60, strokeWidth: 2 },
        encoding: { x, y: stateAxis('y') },
      },
    ],
  };
}

/** The figure: one panel per eta of ETA_COMMIT, a shared colour scale. */
export async function etaCommitFigure(o: { seed: number }): Promise<TopLevelSpec> {
  const data = ETA_COMMIT.etas.map((eta) => etaCommitPanel(eta, o.seed));
  return {
    title: {
      text: 'The DHM target λ̂_t(y, a) under one anchor a = 1, and reverse trajectories',
      subtitle: `circles: commit events; Alg. 2 with the exact classifier, ${ETA_COMMIT.nfe} steps, seed ${o.seed}`,
    },
    hconcat: await Promise.all(data.map((p, k) => panelSpec(p, k))),
    resolve: { scale: { color: 'shared' } },
    config: { axis: { grid: false } },
  };
}
