// Writing a text corpus folder (corpus.ts) from a source (source.ts) in bounded memory whatever its
// size: the normalised stream goes, as UTF-8, to a file in the folder being built while its
// characters and what normalisation dropped are counted; the alphabet is chosen from the counts
// (text-alphabet.ts), the stream restricted to it when it leaves characters out (text8's strips
// their marks; normalisation keeps them unless text8 is chosen up front), then split by characters
// (code points; 90/5/5 as text8, or --hold-out's share each for valid and test, common/hold-out.ts)
// and cut to the train split. The folder is claimed before anything is read and put in place
// atomically (util/).
import { createHash } from 'node:crypto';
import { closeSync, ftruncateSync, openSync, readFileSync, readSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { fsReason, replaceDirAtomic, writeAll, writeJsonAtomic } from '../../util/atomic.js';
import { claimOutDir, type FolderKind } from '../../util/out-path.js';
import { CORPUS_HOLD_OUT, corpusSplit } from '../common/hold-out.js';
import { CORPUS_FORMAT, MIN_CHARS, SPLITS, type SplitName, withAlphabet } from './corpus.js';
import type { SourceProgress } from './document-sink.js';
import { emptyTally, type FoldTally } from './normalise.js';
import { CHUNK_BYTES, normaliseSource, planSource, type SourcePlan } from './source.js';
import {
  type AlphabetMode,
  CharTally,
  type ChosenAlphabet,
  chooseAlphabet,
  type DroppedLetters,
  marksFor,
  Restrict,
  topCounts,
} from './text-alphabet.js';

export interface CorpusOptions {
  /** Replace --out even when it is not a corpus folder sjd wrote. */
  force?: boolean;
  /** Bytes read at a time (tests use a few, to put every case across a chunk boundary). */
  chunkBytes?: number;
  /** Characters of one line a markup construct may hold open (normalise-stream.ts). */
  limit?: number;
  /** told the source's bytes read or expanded so far and the total (a command's progress bar) */
  progress?: SourceProgress;
  /** which letters the corpus keeps (text-alphabet.ts; default auto) */
  alphabet?: AlphabetMode;
  /** the share of the corpus each of valid and test holds, as --hold-out spells it (default 5%) */
  holdOut?: string;
}

/** What normalisation dropped, as corpus.json records it and `sjd data text` reports it. */
export interface Dropped {
  accents: number; // combining marks stripped (the letters kept)
  characters: { total: number; top: [string, number][] }; // other characters made spaces
  letters: DroppedLetters; // letters outside the alphabet made spaces
}

function checkLength(source: string, chars: number): void {
  if (chars < MIN_CHARS)
    throw new Error(
      `${source}: only ${chars} characters after normalisation (need at least ${MIN_CHARS})`,
    );
}

/** The whole normalised character stream of a source, in memory (for sources that fit). */
export function readSource(source: string, opts: CorpusOptions = {}): string {
  const parts: string[] = [];
  const marks = marksFor(opts.alphabet ?? 'auto');
  normaliseSource(planSource(source), (t) => parts.push(t), { ...opts, marks });
  const { text } = withAlphabet(parts.join(''), opts.alphabet);
  checkLength(source, codePoints(text));
  return text;
}

/** A corpus folder: recognised by its corpus.json, holding the three splits. */
export const CORPUS_FOLDER: FolderKind = {
  name: 'corpus folder',
  isOurs(dir: string): boolean {
    try {
      return JSON.parse(readFileSync(join(dir, 'corpus.json'), 'utf8')).format === CORPUS_FORMAT;
    } catch {
      return false;
    }
  },
  entries: ['corpus.json', ...SPLITS.map((s) => `${s}.txt`)],
};

/** The code points of a string: its length less its surrogate pairs. */
function codePoints(s: string): number {
  if (!/[\ud800-\udbff]/.test(s)) return s.length;
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** A file written in pieces of text, as UTF-8, flushed a chunk at a time; counts characters. */
class Utf8Writer {
  readonly fd: number;
  #pending: string[] = [];
  #held = 0;
  chars = 0; // code points
  bytes = 0;

  constructor(
    path: string,
    private readonly out: string,
  ) {
    this.fd = openSync(path, 'w');
  }

  push(t: string): void {
    this.#pending.push(t);
    this.#held += t.length;
    if (this.#held >= CHUNK_BYTES) this.flush();
  }

  flush(): void {
    const s = this.#pending.join('');
    const b = Buffer.from(s, 'utf8');
    try {
      writeAll(this.fd, b);
    } catch (e) {
      throw new Error(`cannot write ${this.out}: ${fsReason(e)}`);
    }
    this.bytes += b.length;
    this.chars += codePoints(s);
    this.#pending = [];
    this.#held = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** Reads a UTF-8 file in chunks as text. */
function readText(path: string, each: (text: string) => void): void {
  const fd = openSync(path, 'r');
  const dec = new StringDecoder('utf8');
  try {
    const buf = Buffer.allocUnsafe(CHUNK_BYTES);
    for (let got = readSync(fd, buf); got > 0; got = readSync(fd, buf))
      each(dec.write(buf.subarray(0, got)));
    each(dec.end());
  } finally {
    closeSync(fd);
  }
}

/** Byte offsets of the given code-point positions (ascending) in a UTF-8 file. */
function byteOffsets(path: string, positions: number[], bytes: number): number[] {
  const out: number[] = [];
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHUNK_BYTES);
    let chars = 0;
    let at = 0;
    for (let got = readSync(fd, buf, 0, CHUNK_BYTES, 0); got > 0; ) {
      for (let i = 0; i < got; i++) {
        if ((buf[i]! & 0xc0) === 0x80) continue; // a continuation byte
        while (out.length < positions.length && positions[out.length] === chars) out.push(at + i);
        chars++;
      }
      at += got;
      got = readSync(fd, buf, 0, CHUNK_BYTES, at);
    }
  } finally {
    closeSync(fd);
  }
  while (out.length < positions.length) out.push(bytes);
  return out;
}

/** A corpus of n characters split at a (train | valid) and b (valid | test). */
type Split = [n: number, a: number, b: number];

/**
 * Splits the stream file at `path` (n characters, `bytes` bytes) by characters at [a, b) as
 * splitText does: the valid and test parts are copied out, then the file is cut to the train
 * part. Returns each split's length in characters and sha256.
 */
function splitStream(path: string, dir: string, split: Split, bytes: number, out: string) {
  const [n, a, b] = split;
  const [ba, bb] = bytes === n ? [a, b] : byteOffsets(path, [a, b], bytes);
  const ranges: [SplitName, number, number, number][] = [
    ['train', 0, ba!, a],
    ['valid', ba!, bb!, b - a],
    ['test', bb!, bytes, n - b],
  ];
  const fd = openSync(path, 'r+');
  const meta: Record<string, { chars: number; sha256: string }> = {};
  try {
    const buf = Buffer.allocUnsafe(CHUNK_BYTES);
    for (const [s, from, to, chars] of ranges) {
      const hash = createHash('sha256');
      const copy = s === 'train' ? undefined : openSync(join(dir, `${s}.txt`), 'w');
      try {
        for (let at = from; at < to; ) {
          const got = readSync(fd, buf, 0, Math.min(CHUNK_BYTES, to - at), at);
          if (got === 0)
            throw new Error(`${out}: the stream file ended at ${at} of ${bytes} bytes`);
          hash.update(buf.subarray(0, got));
          if (copy !== undefined) writeAll(copy, buf.subarray(0, got));
          at += got;
        }
      } finally {
        if (copy !== undefined) closeSync(copy);
      }
      meta[s] = { chars, sha256: hash.digest('hex') };
    }
    ftruncateSync(fd, ba!);
  } catch (e) {
    if (e instanceof Error && !(e as NodeJS.ErrnoException).code) throw e;
    throw new Error(`cannot write ${out}: ${fsReason(e)}`);
  } finally {
    closeSync(fd);
  }
  return meta;
}

/** The normalised stream of `plan` written to `path`, its characters counted. */
function writeStream(plan: SourcePlan, path: string, out: string, opts: CorpusOptions) {
  const w = new Utf8Writer(path, out);
  const chars = new CharTally();
  const fold: FoldTally = emptyTally();
  try {
    normaliseSource(
      plan,
      (t) => {
        chars.add(t);
        w.push(t);
      },
      { ...opts, tally: fold, marks: marksFor(opts.alphabet ?? 'auto') },
    );
  } finally {
    w.close();
  }
  return { chars: w.chars, bytes: w.bytes, tally: chars, fold };
}

/**
 * `from` restricted to `alphabet` (text-alphabet.ts) into `to`; its characters and bytes. `fold`
 * counts the marks stripped.
 */
function restrictStream(from: string, to: string, out: string, r: ChosenAlphabet, fold: FoldTally) {
  const w = new Utf8Writer(to, out);
  try {
    const restrict = new Restrict(r.alphabet, (s) => w.push(s), fold);
    readText(from, (t) => restrict.push(t));
  } finally {
    w.close();
  }
  renameSync(to, from);
  return { chars: w.chars, bytes: w.bytes };
}

/**
 * Normalises and splits a source into the corpus folder `out`; returns its corpus.json. `out`
 * is claimed before the source is read (a user's folder needs `force`) and replaced atomically;
 * on failure nothing is left behind and `out` is as it was.
 */
export function writeCorpus(
  source: string,
  out: string,
  opts: CorpusOptions = {},
): Record<string, unknown> {
  claimOutDir(out, CORPUS_FOLDER, opts.force ?? false);
  const plan = planSource(source, out);
  return replaceDirAtomic(out, (tmp) => {
    const stream = join(tmp, 'train.txt'); // the whole stream, cut to the train split at the end
    const s = writeStream(plan, stream, out, opts);
    const chosen = chooseAlphabet(s.tally, opts.alphabet ?? 'auto');
    const size = chosen.restrict
      ? restrictStream(stream, join(tmp, 'restricted'), out, chosen, s.fold)
      : s;
    checkLength(source, size.chars);
    const dropped: Dropped = {
      accents: s.fold.accents,
      characters: {
        total: [...s.fold.other.values()].reduce((a, b) => a + b, 0),
        top: topCounts(s.fold.other),
      },
      letters: chosen.dropped,
    };
    const meta: Record<string, unknown> = {
      format: CORPUS_FORMAT,
      source,
      alphabet: chosen.alphabet.symbols.join(''),
      dropped,
    };
    const holdOut = opts.holdOut ?? CORPUS_HOLD_OUT;
    const [a, b] = corpusSplit(size.chars, holdOut, `characters of ${source}`);
    if (holdOut !== CORPUS_HOLD_OUT) meta.holdOut = holdOut;
    Object.assign(meta, splitStream(stream, tmp, [size.chars, a, b], size.bytes, out));
    writeJsonAtomic(join(tmp, 'corpus.json'), meta);
    return meta;
  });
}
