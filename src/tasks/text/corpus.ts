// Text8-style corpora (app:text8): a contiguous 90/5/5 train/valid/test split (or --hold-out's,
// common/hold-out.ts) of one normalised character stream, as text8 is split, over the corpus's
// alphabet (text-alphabet.ts): text8's 27 tokens (a-z = 0..25, space = 26) for English and the
// languages whose accents normalisation strips, or the corpus's own letters and the space. Sources (source.ts): a folder or file of
// WikiExtractor output or plain text, the real `text8` file or `text8.zip`, and the embedded
// State of the Union corpus, so a fresh machine needs no data. A corpus folder (corpus-write.ts)
// holds train.txt, valid.txt, test.txt (UTF-8, one line) and corpus.json (source, alphabet, what
// normalisation dropped, sizes, sha256 of each split).
import { constants } from 'node:buffer';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fsReason } from '../../util/atomic.js';
import { type Alphabet, SymbolIndex, sameAlphabet, TEXT8, tokenCount } from '../common/alphabet.js';
import { CORPUS_HOLD_OUT, corpusSplit } from '../common/hold-out.js';
import { isText8, normaliseText } from './normalise.js';
import { EMBEDDED, embeddedFiles } from './source.js';
import { type AlphabetMode, CharTally, chooseAlphabet, restrictText } from './text-alphabet.js';

export { EMBEDDED };

/** text8's symbols as one string, and its token count (27). */
export const ALPHABET = TEXT8.symbols.join('');
export const VOCAB = tokenCount(TEXT8);

export interface Corpus {
  train: string;
  valid: string;
  test: string;
  source: string;
  alphabet?: Alphabet; // text8's when absent
}

export const CORPUS_FORMAT = 'sjd-text8';
export const MIN_CHARS = 1000;

export type SplitName = 'train' | 'valid' | 'test';
export const SPLITS: SplitName[] = ['train', 'valid', 'test'];

const indexes = new WeakMap<Alphabet, SymbolIndex>();
const indexOf = (a: Alphabet): SymbolIndex => {
  const known = indexes.get(a);
  if (known) return known;
  const i = new SymbolIndex(a.symbols);
  indexes.set(a, i);
  return i;
};

/** Text -> tokens of `alphabet` (text8's by default); a character outside it is refused. */
export function encode(text: string, alphabet: Alphabet = TEXT8): Int32Array {
  try {
    return indexOf(alphabet).encode(text);
  } catch (e) {
    throw new Error(`${(e as Error).message} (normalise the text first)`);
  }
}

/** How often each token occurs in `text` (integer counts; p0 of the hazard weights). */
export function tokenCounts(text: string, alphabet: Alphabet = TEXT8): number[] {
  const counts = new Array<number>(tokenCount(alphabet)).fill(0);
  for (const t of encode(text, alphabet)) counts[t]!++;
  return counts;
}

export function decode(tokens: ArrayLike<number>, alphabet: Alphabet = TEXT8): string {
  const K = alphabet.symbols.length;
  let s = '';
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (!(t >= 0 && t < K)) throw new Error(`token ${t} is outside 0..${K - 1}`);
    s += alphabet.symbols[t];
  }
  return s;
}

/**
 * text8's contiguous split: the first 90% train, the next 5% valid, the last 5% test (or
 * `holdOut`'s share each for valid and test, common/hold-out.ts).
 */
export function splitText(
  text: string,
  holdOut = CORPUS_HOLD_OUT,
): { train: string; valid: string; test: string } {
  const [a, b] = corpusSplit(text.length, holdOut, 'characters');
  return { train: text.slice(0, a), valid: text.slice(a, b), test: text.slice(b) };
}

/** Normalised text restricted to the alphabet `mode` chooses for it. */
export function withAlphabet(
  text: string,
  mode: AlphabetMode = 'auto',
): { text: string; alphabet: Alphabet } {
  const tally = new CharTally();
  tally.add(text);
  const { alphabet, restrict } = chooseAlphabet(tally, mode);
  return { text: restrict ? restrictText(text, alphabet) : text, alphabet };
}

/** The embedded default: State of the Union addresses in chronological order, normalised. */
export function embeddedText(): string {
  const raw = embeddedFiles()
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  return withAlphabet(normaliseText(raw)).text;
}

/** A corpus folder's alphabet: corpus.json's, else text8's (a folder made by hand). */
function folderAlphabet(dir: string): Alphabet {
  const meta = join(dir, 'corpus.json');
  if (!existsSync(meta)) return TEXT8;
  let symbols: unknown;
  try {
    symbols = JSON.parse(readFileSync(meta, 'utf8')).alphabet;
  } catch (e) {
    throw new Error(`${meta}: cannot read (${fsReason(e)})`);
  }
  if (symbols === undefined) return TEXT8;
  if (typeof symbols !== 'string' || !symbols.includes(' ') || Array.from(symbols).length < 3)
    throw new Error(`${meta}: "alphabet" must be a string of symbols holding the space`);
  const a: Alphabet = { symbols: Array.from(symbols), pad: false };
  return sameAlphabet(a, TEXT8) ? TEXT8 : a;
}

/** One line of the alphabet's symbols (an optional final newline): text8's test, any alphabet. */
function inAlphabet(text: string, a: Alphabet): boolean {
  if (a === TEXT8) return isText8(text);
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  const index = indexOf(a);
  for (const c of body) if (index.of(c.codePointAt(0)!) < 0) return false;
  return body.trim().length > 0;
}

/** A corpus folder written by writeCorpus, or (no folder) the embedded corpus split in memory. */
export function loadCorpus(dir?: string): Corpus {
  if (dir === undefined || dir === EMBEDDED)
    return { ...splitText(embeddedText()), source: EMBEDDED, alphabet: TEXT8 };
  const alphabet = folderAlphabet(dir);
  const parts = {} as Record<SplitName, string>;
  for (const s of SPLITS) {
    const p = join(dir, `${s}.txt`);
    if (!existsSync(p))
      throw new Error(`${dir}: no ${s}.txt (make a corpus with \`sjd data text --out ${dir}\`)`);
    const bytes = statSync(p).size;
    if (bytes > constants.MAX_STRING_LENGTH)
      throw new Error(
        `${p}: ${bytes} bytes, more than one JS string holds (${constants.MAX_STRING_LENGTH} characters); make a smaller corpus`,
      );
    try {
      parts[s] = readFileSync(p, 'utf8');
    } catch (e) {
      throw new Error(`${p}: cannot read (${fsReason(e)})`);
    }
    if (!inAlphabet(parts[s], alphabet))
      throw new Error(
        alphabet === TEXT8
          ? `${p}: not text8 format (one line of a-z and spaces)`
          : `${p}: not one line of the corpus's alphabet (corpus.json)`,
      );
    if (parts[s].endsWith('\n')) parts[s] = parts[s].slice(0, -1);
  }
  return { ...parts, source: dir, alphabet };
}

/** The training split's hash, with the alphabet when it is not text8's. */
export function corpusHash(c: Corpus): string {
  const h = createHash('sha256').update(c.train);
  if (c.alphabet && !sameAlphabet(c.alphabet, TEXT8))
    h.update(`\u0000${c.alphabet.symbols.join('')}`);
  return h.digest('hex');
}
