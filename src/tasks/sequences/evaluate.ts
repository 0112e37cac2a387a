// Scoring a sequences model on held-out sequences (`sjd eval sequences`):
//   - the held-out negative ELBO (prop:elbo-eta1; train/held-out-elbo.ts) in bits a symbol, the
//     bits of each padded row shared over its real symbols (the PADs encode its length);
//   - the k-mer distance (kmer.ts): total variation between the k-mer distributions of samples
//     and of the held-out sequences, beside the training set's own distance (the floor a model
//     that reproduced the data would reach, given the held-out set's size);
//   - infilling by templates (common/template.ts): the middle quarter of each held-out sequence
//     hidden, the rest (and its PADs) clamped, filled; the share of hidden symbols recovered,
//     beside the share a constant guess of the commonest training symbol gets.

import type { SamplerName } from '../../sampling/index.js';
import { tensor, tidy } from '../../torch/index.js';
import { elboUnavailable, heldOutElboBits } from '../../train/held-out-elbo.js';
import { maxOf } from '../../util/fold.js';
import type { Template } from '../common/template.js';
import { kmerDistance } from './kmer.js';
import { sampleSequences } from './sample.js';
import type { SequenceSet } from './sequence-set.js';
import type { SequenceModel } from './spec.js';
import { decodeRows } from './task.js';

export interface SequenceEvalOptions {
  n: number; // samples, and at most this many held-out sequences to infill
  nfe: number;
  seed: number;
  k: number;
  sampler?: SamplerName;
  temperature?: number;
}

export interface SequenceScores {
  elbo_bits?: number;
  elbo_note?: string; // why there is none, or what it is
  kmer_tv: number;
  kmer_floor: number;
  infill_accuracy: number;
  infill_baseline: number;
  holes: number;
  held_out: number;
}

/** The [start, end) of the middle quarter of a sequence of `len` symbols (at least one). */
export function middleQuarter(len: number): [number, number] {
  const size = Math.max(1, Math.round(len / 4));
  const start = Math.floor((len - size) / 2);
  return [start, start + size];
}

/** The real length of each row (up to its first PAD). */
const lengthsOf = (rows: Int32Array, L: number, pad: number): number[] =>
  Array.from({ length: rows.length / L }, (_, n) => {
    const row = rows.subarray(n * L, (n + 1) * L);
    const at = row.indexOf(pad);
    return at < 0 ? L : at;
  });

/** The held-out negative ELBO in bits a symbol, or why there is none (and what it bounds). */
function heldOutElbo(m: SequenceModel, set: SequenceSet, tokens: number) {
  const L = set.length;
  const why = elboUnavailable(m.process);
  const elbo_bits = why
    ? undefined
    : tidy(() => {
        const x0 = tensor(set.valid, [set.valid.length / L, L], 'int32').to('int64'); // [M, L]
        return heldOutElboBits(m.model, m.process, x0, { tokens });
      });
  const elbo_note = why ?? (m.process.config.kernel === 'mask' ? 'a bound' : 'its jump part');
  return { ...(elbo_bits === undefined ? {} : { elbo_bits }), elbo_note };
}

/**
 * Infilling: the middle quarter of each of the first `o.n` held-out sequences sampled, scored
 * against the truth and against always guessing the train set's commonest symbol.
 */
function infill(m: SequenceModel, set: SequenceSet, lengths: number[], o: SequenceEvalOptions) {
  const L = set.length;
  const a = m.vocabulary;
  const PAD = a.symbols.length;
  const count = Math.min(o.n, lengths.length);
  const templates: Template[] = [];
  const truth: number[][] = [];
  for (let r = 0; r < count; r++) {
    const row = Array.from(set.valid.subarray(r * L, (r + 1) * L));
    const [s, e] = middleQuarter(lengths[r]!);
    templates.push({ length: L, tokens: row, known: row.map((_, i) => i < s || i >= e) });
    truth.push(row.slice(s, e));
  }
  // a PAD sampled in a hole ends the decoded string there: the holes past it count as wrong
  const sampling = { nfe: o.nfe, seed: o.seed, sampler: o.sampler, temperature: o.temperature };
  const fills = sampleSequences(m.model, m.process, a, {
    ...sampling,
    n: count,
    template: templates,
  });
  const counts = new Array<number>(PAD).fill(0);
  for (const t of set.train) if (t < PAD) counts[t]!++;
  const commonest = counts.indexOf(maxOf(counts));
  let right = 0;
  let guessed = 0;
  let holes = 0;
  fills.forEach((f, r) => {
    const [s] = middleQuarter(lengths[r]!);
    const got = Array.from(f).slice(s, s + truth[r]!.length);
    truth[r]!.forEach((t, i) => {
      holes++;
      if (got[i] === a.symbols[t]) right++;
      if (t === commonest) guessed++;
    });
  });
  return {
    infill_accuracy: holes ? right / holes : 0,
    infill_baseline: holes ? guessed / holes : 0,
    holes,
  };
}

export function evaluateSequences(
  m: SequenceModel,
  set: SequenceSet,
  o: SequenceEvalOptions,
): SequenceScores {
  const L = set.length;
  const a = m.vocabulary;
  const lengths = lengthsOf(set.valid, L, a.symbols.length);
  const tokens = lengths.reduce((s, n) => s + n, 0);
  const elbo = heldOutElbo(m, set, tokens);
  const reference = decodeRows(set.valid, L, a);
  const sampling = { nfe: o.nfe, seed: o.seed, sampler: o.sampler, temperature: o.temperature };
  const samples = sampleSequences(m.model, m.process, a, { ...sampling, n: o.n });
  return {
    ...elbo,
    kmer_tv: kmerDistance(samples, reference, o.k),
    kmer_floor: kmerDistance(decodeRows(set.train, L, a), reference, o.k),
    ...infill(m, set, lengths, o),
    held_out: lengths.length,
  };
}
