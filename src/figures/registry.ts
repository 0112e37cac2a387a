// The paper's figures that sjd draws, by name (`sjd figure NAME`): each a Vega-Lite spec built
// from the process engine and the samplers, seeded, and written as SVG (util/plot.ts).
import type { TopLevelSpec } from 'vega-lite';
import { writeSvg } from '../util/plot.js';
import { diffusionComparisonFigure } from './diffusion-comparison.js';
import { etaCommitFigure } from './eta-commit.js';

export interface FigureOptions {
  seed: number; // the reverse runs' seed
}

export interface Figure {
  label: string; // the paper's label
  description: string;
  spec(o: FigureOptions): Promise<TopLevelSpec>;
}

export const FIGURES: Record<string, Figure> = {
  'eta-commit': {
    label: 'fig:eta-commit',
    description:
      'the DHM target under one anchor for eta = 0.25, 0.5, 0.75, 1, with reverse trajectories and their commit events',
    spec: etaCommitFigure,
  },
  'diffusion-comparison': {
    label: 'fig:diffusion_comparison',
    description: 'masked, continuous and SJD reverse trajectories of the same tokens side by side',
    spec: diffusionComparisonFigure,
  },
};

/** The figure by name (an unknown name is refused, naming the known ones). */
export function figure(name: string): Figure {
  const f = FIGURES[name];
  if (!f) throw new Error(`unknown figure '${name}' (known: ${Object.keys(FIGURES).join(', ')})`);
  return f;
}

/** Draws the figure `name` into the SVG file `path` (written atomically). */
export async function writeFigure(name: string, path: string, o: FigureOptions): Promise<string> {
  return writeSvg(path, await figure(name).spec(o));
}
