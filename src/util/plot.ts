// Plots as SVG files: a Vega-Lite spec compiled and rendered headless by Vega, written
// atomically (util/atomic.ts).
import type { TopLevelSpec } from 'vega-lite';
import { writeFileAtomic } from './atomic.js';

export async function writeSvg(path: string, spec: TopLevelSpec): Promise<string> {
  // Loaded on first use: Vega costs about 0.6 s to import, which `sjd --help` should not pay.
  const [vega, { compile }] = await Promise.all([import('vega'), import('vega-lite')]);
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  writeFileAtomic(path, await view.toSVG());
  return path;
}
