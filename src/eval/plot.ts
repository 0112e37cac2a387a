// Plots as SVG files: a Vega-Lite spec compiled and rendered headless by Vega, written
// atomically (util/atomic.ts).
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { writeFileAtomic } from '../util/atomic.js';

export async function writeSvg(path: string, spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  writeFileAtomic(path, await view.toSVG());
  return path;
}
