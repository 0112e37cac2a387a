// What the figures' panels share (fig:eta-commit, fig:diffusion_comparison): reverse paths
// (reverse-paths.ts) as Vega-Lite data rows, a row per grid time of each site and a row per
// commit event (where the site lands on its anchor), and the panels' axes: forward time t runs
// from T on the left to 0 on the right, the way a reverse run goes.
import type { TopLevelSpec } from 'vega-lite';
import { commitIndex, coordinate, type ReversePaths } from './reverse-paths.js';

/** A panel of a figure: one view of Vega-Lite's horizontal concatenation. */
export type Panel = Extract<TopLevelSpec, { hconcat: unknown }>['hconcat'][number];

/** The y range the panels show. */
export const Y_RANGE: [number, number] = [-3, 3];

/** The panels' x channel: forward time t, T on the left, 0 on the right. */
export function timeAxis(field: string, T: number) {
  return {
    field,
    type: 'quantitative' as const,
    title: 't (reverse time runs left to right)',
    scale: { domain: [0, T], reverse: true, nice: false },
  };
}

/** The panels' y channel: the state's coordinate; `marks` puts the axis's ticks at named levels. */
export function stateAxis(field: string, marks?: { y: number; label: string }[]) {
  const label = marks
    ?.map((m) => `datum.value === ${m.y} ? ${JSON.stringify(m.label)} : `)
    .join('');
  return {
    field,
    type: 'quantitative' as const,
    title: 'y',
    scale: { domain: Y_RANGE, nice: false },
    ...(marks && { axis: { values: marks.map((m) => m.y), labelExpr: `${label}''` } }),
  };
}

/**
 * One row per (trajectory b, site l, grid step i): the state's coordinate k at t_i; with
 * `untilCommit`, each site's path ends where it lands on its anchor (it stays there after).
 */
export function pathRows(p: ReversePaths, o: { k?: number; untilCommit?: boolean } = {}) {
  const rows: Record<string, number>[] = [];
  for (let b = 0; b < p.B; b++)
    for (let l = 0; l < p.L; l++) {
      const y = coordinate(p, b, l, o.k);
      const end = o.untilCommit ? commitIndex(p, b, l) : p.t.length - 1;
      for (let i = 0; i <= end; i++)
        rows.push({ path: b * p.L + l, row: b, site: l, i, t: p.t[i]!, y: y[i]! });
    }
  return rows;
}

/**
 * One row per site: where it commits, the grid time it first sits on its anchor (t = 0 where the
 * sampler's last step commits it) and that anchor's coordinate k.
 */
export function commitRows(p: ReversePaths, k = 0): Record<string, number>[] {
  const rows: Record<string, number>[] = [];
  for (let b = 0; b < p.B; b++)
    for (let l = 0; l < p.L; l++) {
      const i = commitIndex(p, b, l);
      rows.push({ row: b, site: l, t: p.t[i]!, y: coordinate(p, b, l, k)[i]! });
    }
  return rows;
}
