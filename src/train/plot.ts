// Plots as SVG files: a Vega-Lite spec compiled and rendered headless by Vega, written
// atomically (temporary file, then rename). Also atomic text files for the docs beside them.
import { renameSync, writeFileSync } from 'node:fs';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

export function writeTextAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

export async function writeSvg(path: string, spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  writeTextAtomic(path, await view.toSVG());
  return path;
}
