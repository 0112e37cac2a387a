// A surface over (t, y) as a heat-map image for a panel (fig:eta-commit): one pixel per grid
// cell, coloured by a Vega colour scheme over a clamped domain, as a PNG embedded in the SVG
// (a data URL: the file stays small, where a rectangle a cell would be most of it). Column 0 is
// the largest t, as the panels' time axis runs from T on the left to 0 on the right; row 0 the
// largest y.
import type { PNG as PngClass } from 'pngjs';
import { lazyRequire } from '../util/lazy-require.js';
import type { HazardSurface } from './hazard-surface.js';

const pngjs = lazyRequire<{ PNG: typeof PngClass }>('pngjs');

/** [r, g, b] of a CSS colour as Vega's schemes give them: `rgb(r, g, b)` or `#rrggbb`. */
function rgbOf(css: string): [number, number, number] {
  const rgb = /^rgb\((\d+), ?(\d+), ?(\d+)\)$/.exec(css);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(css);
  if (hex)
    return [
      Number.parseInt(hex[1]!, 16),
      Number.parseInt(hex[2]!, 16),
      Number.parseInt(hex[3]!, 16),
    ];
  throw new Error(`a colour scheme gave '${css}', not rgb(r, g, b) or #rrggbb`);
}

/** The PNG data URL of f(value) over the surface, coloured by `scheme` on `domain` (clamped). */
export async function heatMapImage(
  s: HazardSurface,
  f: (v: number) => number,
  scheme: string,
  domain: [number, number],
): Promise<string> {
  const vega = await import('vega'); // loaded on first use (util/plot.ts)
  const colour = vega.scheme(scheme) as ((x: number) => string) | undefined;
  if (!colour) throw new Error(`unknown Vega colour scheme '${scheme}'`);
  const [nt, ny] = [s.t.length, s.y.length];
  const png = new (pngjs().PNG)({ width: nt, height: ny });
  const [lo, hi] = domain;
  for (let c = 0; c < nt; c++)
    for (let r = 0; r < ny; r++) {
      const v = f(s.value[(nt - 1 - c) * ny + (ny - 1 - r)]!);
      const x = Number.isNaN(v) ? 0 : Math.min(Math.max((v - lo) / (hi - lo), 0), 1);
      png.data.set([...rgbOf(colour(x)), 255], (r * nt + c) * 4);
    }
  return `data:image/png;base64,${pngjs().PNG.sync.write(png).toString('base64')}`;
}
