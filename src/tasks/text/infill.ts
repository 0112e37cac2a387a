// The infilling benchmark: held-out windows of the model's length, with holes of set shapes, filled
// by a model under a sampler with everything else clamped (template.ts), and scored against the
// truth:
//   char_accuracy  the fraction of hole characters sampled exactly;
//   valid_words    the fraction of the sample's words that touch a hole and lie inside the
//                  window (not cut by its edges) that are words of the held-out text;
//   hole_ce        the classifier's cross-entropy (nats) at the hole positions from the most
//                  corrupted training time (T minus the training clip) with the rest clamped: how
//                  well one pass predicts the holes from their context, without sampling.
// Shapes: `chars` (15% of the positions, single characters at random), `span8`, `span16`, `span32`
// (one span, at least 8 characters from either edge), `words` (every other word, its letters). The
// holes of a window are drawn from a generator seeded by the window's index, so every model and
// sampling seed fills the same ones; sampling seeds give the spread (mean +- std).

import { type Network, networkLength } from '../../model/network.js';
import { type SJDProcess, T_CLIP } from '../../process/index.js';
import type { SamplerName } from '../../sampling/index.js';
import { noGrad, TorchGenerator, tensor, tidy } from '../../torch/index.js';
import { sjdLoss } from '../../train/sjd-loss.js';
import { mean, std } from '../../util/stats.js';
import { uniforms } from '../../util/uniforms.js';
import type { Alphabet } from '../common/alphabet.js';
import { encode } from './corpus.js';
import { dictionary, heldOutWindows } from './metrics.js';
import { sampleText } from './sample.js';
import type { TextTemplate } from './template.js';

export const HOLE_SHAPES = ['chars', 'span8', 'span16', 'span32', 'words'] as const;
export type HoleShape = (typeof HOLE_SHAPES)[number];

/** Hole shapes from a comma-separated list, checked. */
export function parseHoleShapes(v: string): HoleShape[] {
  const shapes = v.split(',').map((s) => s.trim());
  for (const s of shapes)
    if (!(HOLE_SHAPES as readonly string[]).includes(s))
      throw new Error(`unknown hole shape '${s}' (${HOLE_SHAPES.join(', ')})`);
  return shapes as HoleShape[];
}

/** The holes of one window (true = generated) for a shape, from the window's own generator. */
export function holeMask(shape: HoleShape, window: string, index: number): boolean[] {
  const L = window.length;
  const u = uniforms(1_000_003 * (index + 1) + HOLE_SHAPES.indexOf(shape));
  const holes = new Array<boolean>(L).fill(false);
  if (shape === 'chars') {
    for (let i = 0; i < L; i++) holes[i] = u() < 0.15;
  } else if (shape === 'words') {
    let k = 0;
    for (let i = 0; i < L; ) {
      if (window[i] === ' ') {
        i++;
        continue;
      }
      let j = i;
      while (j < L && window[j] !== ' ') j++;
      if (k % 2 === 1) for (let p = i; p < j; p++) holes[p] = true;
      k++;
      i = j;
    }
  } else {
    const span = Number(shape.slice(4));
    if (L < span + 16) throw new Error(`a ${shape} hole needs windows of at least ${span + 16}`);
    const start = 8 + Math.floor(u() * (L - span - 15));
    for (let p = start; p < start + span; p++) holes[p] = true;
  }
  return holes;
}

export interface InfillScores {
  char_accuracy: number;
  valid_words: number;
  hole_ce: number;
  holes: number; // hole characters over all windows
}

/** Scores of samples against their windows and holes (masks: true at a hole); dict: valid words. */
export function scoreInfill(
  samples: string[],
  windows: string[],
  masks: boolean[][],
  dict: Set<string>,
): Omit<InfillScores, 'hole_ce'> {
  let right = 0;
  let holes = 0;
  let valid = 0;
  let touching = 0;
  samples.forEach((s, b) => {
    const m = masks[b]!;
    for (let i = 0; i < s.length; i++)
      if (m[i]) {
        holes++;
        if (s[i] === windows[b]![i]) right++;
      }
    // the sample's words with their spans; those inside the window that touch a hole
    let i = 0;
    while (i < s.length) {
      if (s[i] === ' ') {
        i++;
        continue;
      }
      let j = i;
      while (j < s.length && s[j] !== ' ') j++;
      const inside = i > 0 && j < s.length;
      if (inside && m.slice(i, j).some(Boolean)) {
        touching++;
        if (dict.has(s.slice(i, j))) valid++;
      }
      i = j;
    }
  });
  return {
    char_accuracy: holes ? right / holes : 0,
    valid_words: touching ? valid / touching : 0,
    holes,
  };
}

/** The classifier's mean cross-entropy at the holes, at t = T - T_CLIP with the rest clamped. */
function holeCrossEntropy(
  model: Network,
  proc: SJDProcess,
  windows: string[],
  masks: boolean[][],
  alphabet?: Alphabet,
): number {
  const B = windows.length;
  const L = windows[0]!.length;
  return noGrad(() =>
    tidy(() => {
      const x0 = tensor(
        windows.flatMap((w) => Array.from(encode(w, alphabet))),
        [B, L],
        'int64',
      ); // [B, L]
      const clamped = tensor(
        masks.flatMap((m) => m.map((h) => (h ? 0 : 1))),
        [B, L],
        'uint8',
      ).to('bool'); // [B, L]
      const t = new Float64Array(B).fill(proc.T - T_CLIP);
      return sjdLoss(model, proc, x0, t, new TorchGenerator(12345), clamped).item();
    }),
  );
}

export interface InfillOptions {
  shapes: HoleShape[];
  windows: number; // held-out windows per shape
  seeds: number[]; // sampling seeds
  nfe: number;
  sampler?: SamplerName;
  temperature?: number;
  topP?: number;
  /** the model's alphabet (default text8's) */
  alphabet?: Alphabet;
}

export interface InfillResult {
  shape: HoleShape;
  bySeed: InfillScores[];
  mean: InfillScores;
  std: Omit<InfillScores, 'holes'>;
}

/**
 * The benchmark over the held-out text `heldOut` (windows of the model's length, evenly spaced):
 * per shape, the scores of each sampling seed and their mean and std.
 */
export function infillBenchmark(
  model: Network,
  proc: SJDProcess,
  heldOut: string,
  o: InfillOptions,
): InfillResult[] {
  const L = networkLength(model);
  const windows = heldOutWindows(heldOut, L, o.windows);
  const dict = dictionary(heldOut, 1);
  return o.shapes.map((shape) => {
    const masks = windows.map((w, i) => holeMask(shape, w, i));
    const templates: TextTemplate[] = windows.map((w, i) => ({
      length: L,
      tokens: Array.from(encode(w, o.alphabet)),
      known: masks[i]!.map((h) => !h),
    }));
    const hole_ce = holeCrossEntropy(model, proc, windows, masks, o.alphabet);
    const bySeed = o.seeds.map((seed) => {
      const { texts } = sampleText(model, proc, {
        n: windows.length,
        nfe: o.nfe,
        seed,
        sampler: o.sampler,
        temperature: o.temperature,
        topP: o.topP,
        alphabet: o.alphabet,
        template: templates,
      });
      return { ...scoreInfill(texts, windows, masks, dict), hole_ce };
    });
    const of = (k: 'char_accuracy' | 'valid_words') => bySeed.map((s) => s[k]);
    return {
      shape,
      bySeed,
      mean: {
        char_accuracy: mean(of('char_accuracy')),
        valid_words: mean(of('valid_words')),
        hole_ce,
        holes: bySeed[0]!.holes,
      },
      std: {
        char_accuracy: std(of('char_accuracy')),
        valid_words: std(of('valid_words')),
        hole_ce: 0,
      },
    };
  });
}
