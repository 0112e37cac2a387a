// A file's sequences as the rows a model trains on: tokens over the alphabet (alphabet.ts), every
// row of one length L, a shorter sequence padded with PAD when the set is padded (else every
// sequence must have length L), and a held-out split: --hold-out of the set, spread through it
// (common/hold-out.ts; by default every tenth sequence, positions 9, 19, ...), goes to validation,
// the rest to training, so the split is fixed by the file and the share alone. Problems name
// the file and the line the sequence starts on.
import { createHash } from 'node:crypto';
import { maxOf } from '../../util/fold.js';
import { type Alphabet, alphabetOf, declaredAlphabet, SymbolIndex } from '../common/alphabet.js';
import { DEFAULT_HOLD_OUT, heldOutItems, parseHoldOut } from '../common/hold-out.js';
import type { SequenceFile } from './read.js';

export interface SequenceSetOptions {
  alphabet?: string; // declared symbols in order (default: the symbols the data uses)
  length?: number; // L (default: the longest sequence)
  pad?: boolean; // pad shorter sequences with PAD (default: only when lengths differ)
  holdOut?: string; // the share held out for evaluation (common/hold-out.ts; default one in ten)
}

export interface SequenceSet {
  alphabet: Alphabet;
  length: number; // L
  train: Int32Array; // [nTrain * L] tokens
  valid: Int32Array; // [nValid * L]
  hash: string; // names the data: a resumed run must see the same
  source: string;
}

/** The most symbols an alphabet may have (with PAD, 65,536 tokens). */
const MAX_SYMBOLS = 65_535;

/**
 * The sequences of `file` as rows of L tokens over `symbols`, a shorter one padded with PAD (the
 * token after the symbols) when `pad`; problems name the line (`declared`: the alphabet was
 * given, so a symbol outside it can be added to it).
 */
function encodeRows(
  file: SequenceFile,
  symbols: string[],
  L: number,
  pad: boolean,
  declared: boolean,
): Int32Array {
  const { sequences, lines, path } = file;
  const PAD = symbols.length;
  const rows = new Int32Array(sequences.length * L); // [n * L]
  const index = new SymbolIndex(symbols);
  sequences.forEach((s, n) => {
    let tokens: Int32Array;
    try {
      tokens = index.encode(s);
    } catch (e) {
      // a declared alphabet leaves the symbol out: say how to keep it (an N among ACGT, say)
      const keep = declared ? '; add it to --alphabet to keep it' : '';
      throw new Error(`${path} line ${lines[n]}: ${(e as Error).message}${keep}`);
    }
    if (tokens.length > L)
      throw new Error(
        `${path} line ${lines[n]}: ${tokens.length} symbols, longer than the length ${L}`,
      );
    if (tokens.length < L && !pad)
      throw new Error(
        `${path} line ${lines[n]}: ${tokens.length} symbols, not the length ${L} (pad shorter sequences to use them)`,
      );
    rows.set(tokens, n * L);
    rows.fill(PAD, n * L + tokens.length, (n + 1) * L);
  });
  return rows;
}

/** The rows of `file`: encoded, padded or checked to one length, split into training and validation. */
export function sequenceSet(file: SequenceFile, o: SequenceSetOptions = {}): SequenceSet {
  const { sequences, path } = file;
  const held = heldOutItems(
    sequences.length,
    parseHoldOut(o.holdOut ?? DEFAULT_HOLD_OUT),
    `sequences of ${path}`,
  );
  const symbols = o.alphabet === undefined ? alphabetOf(sequences) : declaredAlphabet(o.alphabet);
  if (symbols.length < 2) throw new Error(`${path}: the sequences use one symbol only`);
  // the bound of a saved config's alphabet (train/config-schema.ts), checked before any work
  if (symbols.length > MAX_SYMBOLS) throw new Error(`${path}: more than ${MAX_SYMBOLS} symbols`);
  const lengths = sequences.map((s) => Array.from(s).length); // in symbols (code points)
  const L = o.length ?? maxOf(lengths);
  const uneven = lengths.some((n) => n !== L);
  const pad = o.pad ?? uneven;
  const alphabet: Alphabet = { symbols, pad };
  const rows = encodeRows(file, symbols, L, pad, o.alphabet !== undefined);
  const pick = (keep: (n: number) => boolean) => {
    const ns = sequences.map((_, n) => n).filter(keep);
    const out = new Int32Array(ns.length * L);
    ns.forEach((n, k) => {
      out.set(rows.subarray(n * L, (n + 1) * L), k * L);
    });
    return out;
  };
  const hash = createHash('sha256')
    .update(JSON.stringify({ symbols, pad, L }))
    .update(new Uint8Array(rows.buffer))
    .digest('hex')
    .slice(0, 16);
  return {
    alphabet,
    length: L,
    train: pick((n) => !held(n)),
    valid: pick(held),
    hash,
    source: path,
  };
}
