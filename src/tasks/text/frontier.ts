// Quality-diversity frontiers on text (app:text8, fig:text8-frontier): for each NFE budget,
// a sweep of 11 temperatures evenly spaced in [0.05, 1]; each point scores n samples
// (valid-word fractions at >= 5 and >= 6, unique-word fraction). Written as JSON and as a
// plot of valid-word fraction (>= 5) against unique-word fraction, one curve per NFE. A JSON
// file of labelled curves is sjd's own frontier (FRONTIER_FILE), which `sjd eval text
// --frontier` may replace; any other file there is the user's.

import { dirname } from 'node:path';
import type { Network } from '../../model/network.js';
import type { SJDProcess } from '../../process/index.js';
import type { SamplerName } from '../../sampling/index.js';
import { makeDir, writeFileAtomic } from '../../util/atomic.js';
import { type FileKind, smallFileText } from '../../util/out-path.js';
import { writeSvg } from '../../util/plot.js';
import type { Alphabet } from '../common/alphabet.js';
import { heldOutWindows, type TextScorer, type TextScores } from './metrics.js';
import { sampleText } from './sample.js';

export const FRONTIER_NFES = [32, 64, 128];
export const FRONTIER_TEMPERATURES = Array.from(
  { length: 11 },
  (_, i) => Math.round((0.05 + (0.95 * i) / 10) * 1000) / 1000,
);

export interface FrontierPoint extends TextScores {
  nfe: number;
  temperature: number;
  chars_per_s: number;
}

export interface FrontierOptions {
  n: number;
  seed: number;
  nfes?: number[];
  temperatures?: number[];
  sampler?: SamplerName;
  /** the model's alphabet (default text8's) */
  alphabet?: Alphabet;
  onPoint?: (p: FrontierPoint) => void;
  /** told the texts of the whole sweep sampled so far (n a point), as they are sampled */
  progress?: (done: number) => void;
  /**
   * points traced before (a stopped trace's, kept by the text comparison): each is taken as it is, since a
   * point depends on its NFE, temperature and seed alone, and not sampled again
   */
  done?: readonly FrontierPoint[];
}

export function frontier(
  model: Network,
  proc: SJDProcess,
  scorer: TextScorer,
  o: FrontierOptions,
): FrontierPoint[] {
  const points: FrontierPoint[] = [];
  for (const nfe of o.nfes ?? FRONTIER_NFES) {
    for (const temperature of o.temperatures ?? FRONTIER_TEMPERATURES) {
      const base = points.length * o.n; // the texts of the points before this one
      const before = o.done?.find((p) => p.nfe === nfe && p.temperature === temperature);
      if (before) {
        points.push(before);
        continue;
      }
      const t0 = performance.now();
      const { texts } = sampleText(model, proc, {
        n: o.n,
        nfe,
        temperature,
        seed: o.seed,
        sampler: o.sampler,
        alphabet: o.alphabet,
        ...(o.progress && { progress: (done: number) => o.progress!(base + done) }),
      });
      const seconds = (performance.now() - t0) / 1000;
      const chars = texts.reduce((a, s) => a + s.length, 0);
      const p = { nfe, temperature, ...scorer.score(texts), chars_per_s: chars / seconds };
      points.push(p);
      o.onPoint?.(p);
    }
  }
  return points;
}

/**
 * The best valid-word fraction (>= 5 and >= 6) along each NFE's frontier, over the points
 * whose unique-word fraction is at least minUnique (an NFE with no such point is absent).
 */
export function frontierMaxima(
  points: FrontierPoint[],
  minUnique = 0,
): Record<number, { valid_words5: number; valid_words6: number }> {
  const out: Record<number, { valid_words5: number; valid_words6: number }> = {};
  for (const p of points) {
    if (p.unique_words < minUnique) continue;
    out[p.nfe] ??= { valid_words5: 0, valid_words6: 0 };
    const m = out[p.nfe]!;
    m.valid_words5 = Math.max(m.valid_words5, p.valid_words5);
    m.valid_words6 = Math.max(m.valid_words6, p.valid_words6);
  }
  return out;
}

export const REFERENCE_LABEL = 'held-out text';
export const REFERENCE_WINDOWS = 1024;

/** The frontier's reference: held-out text (the valid split) scored like the samples. */
export function heldOutReference(scorer: TextScorer, heldOut: string, length: number): TextScores {
  return scorer.score(heldOutWindows(heldOut, length, REFERENCE_WINDOWS));
}

/** A frontier sjd wrote (writeFrontier): JSON whose `curves` are labelled lists of points. */
export const FRONTIER_FILE: FileKind = {
  name: 'frontier',
  isOurs(path) {
    try {
      const j = JSON.parse(smallFileText(path, 64 << 20) ?? '');
      return (
        Array.isArray(j?.curves) &&
        j.curves.every(
          (c: { label?: unknown; points?: unknown }) =>
            typeof c?.label === 'string' && Array.isArray(c.points),
        )
      );
    } catch {
      return false;
    }
  },
};

/**
 * points.json and a plot (SVG) of one or more labelled frontiers; the held-out reference,
 * where given, is saved beside them and drawn as one point in each NFE's panel.
 */
export async function writeFrontier(
  jsonPath: string,
  svgPath: string,
  curves: { label: string; points: FrontierPoint[] }[],
  meta: Record<string, unknown> = {},
  reference?: TextScores,
): Promise<void> {
  makeDir(dirname(jsonPath)); // an --out folder that does not exist yet
  writeFileAtomic(jsonPath, `${JSON.stringify({ ...meta, reference, curves }, null, 1)}\n`);
  const nfes = [...new Set(curves.flatMap((c) => c.points.map((p) => p.nfe)))];
  const values = [
    ...curves.flatMap((c) => c.points.map((p) => ({ ...p, model: c.label, NFE: String(p.nfe) }))),
    ...(reference
      ? nfes.map((nfe) => ({ ...reference, model: REFERENCE_LABEL, NFE: String(nfe) }))
      : []),
  ];
  await writeSvg(svgPath, {
    data: { values },
    facet: { column: { field: 'NFE', type: 'ordinal', sort: FRONTIER_NFES.map(String) } },
    spec: {
      width: 260,
      height: 240,
      mark: { type: 'line', point: true },
      encoding: {
        x: {
          field: 'unique_words',
          type: 'quantitative',
          title: 'unique-word fraction',
          scale: { zero: false },
        },
        y: {
          field: 'valid_words5',
          type: 'quantitative',
          title: 'valid-word fraction (>= 5)',
          scale: { zero: false },
        },
        color: { field: 'model', type: 'nominal' },
        order: { field: 'temperature', type: 'quantitative' },
      },
    },
  });
}
