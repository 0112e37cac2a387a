// A text corpus's alphabet (app:text8 for the default): after normalisation (normalise.ts) a corpus
// holds lowercase letters of any script, their marks where it keeps them, and single spaces; its
// alphabet keeps
//   text8  a-z and the space: marks are stripped (normalise.ts stripMarks: 'é' is 'e', 'ß' 'ss')
//          and every other letter becomes a space (and is reported dropped);
//   own    every letter and mark the corpus uses, in code-point order, then the space: Hindi keeps
//          its vowel signs, Japanese its voiced kana, German its umlauts;
//   auto   text8 when the letters outside a-z, marks stripped, are under OWN_SHARE of all letters
//          (an English, French or German corpus), else own (Greek, Russian, Hindi, Japanese...).
// A corpus is folded with its marks kept unless its alphabet is text8 by choice (corpus-write.ts),
// so auto can still choose own. Restricting a text to its alphabet strips the marks where the
// alphabet is text8's, makes each letter outside it a space and collapses the runs of spaces that
// leaves, in one string or, in pieces, in bounded memory.
import {
  type Alphabet,
  inCodePointOrder,
  SymbolIndex,
  sameAlphabet,
  TEXT8,
} from '../common/alphabet.js';
import { type FoldTally, type Marks, stripMarks } from './normalise.js';

export const ALPHABET_MODES = ['auto', 'text8', 'own'] as const;
export type AlphabetMode = (typeof ALPHABET_MODES)[number];

/** Under this share of letters outside a-z, `auto` keeps text8's alphabet. */
export const OWN_SHARE = 0.01;

/** How often each character occurs, by code point. */
export class CharTally {
  readonly #bmp = new Float64Array(0x10000);
  readonly #astral = new Map<number, number>();

  add(s: string): void {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
        const cp = s.codePointAt(i)!;
        this.#astral.set(cp, (this.#astral.get(cp) ?? 0) + 1);
        i++;
      } else this.#bmp[c]!++;
    }
  }

  /** [character, count] for every character seen. */
  entries(): [string, number][] {
    const out: [string, number][] = [];
    this.#bmp.forEach((n, c) => {
      if (n > 0) out.push([String.fromCharCode(c), n]);
    });
    for (const [cp, n] of this.#astral) out.push([String.fromCodePoint(cp), n]);
    return out;
  }
}

/** Characters and how often, most frequent first, at most `k`. */
export const topCounts = (counts: Iterable<[string, number]>, k = 5): [string, number][] =>
  [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, k);

/** The letters a corpus's alphabet leaves out: how many, and the most frequent. */
export interface DroppedLetters {
  total: number;
  top: [string, number][];
}

/** What folding does with marks for a corpus whose alphabet `mode` chooses: keeps them unless text8. */
export const marksFor = (mode: AlphabetMode): Marks => (mode === 'text8' ? 'strip' : 'keep');

/** A letter (or mark) that text8's alphabet keeps once its marks are stripped: a-z, or nothing. */
const inText8 = (c: string): boolean => /^[a-z]*$/.test(stripMarks(c));

/** The alphabet a corpus keeps, what it drops, and whether the text must be restricted to it. */
export interface ChosenAlphabet {
  alphabet: Alphabet;
  dropped: DroppedLetters;
  restrict: boolean; // some character of the text is not a symbol of the alphabet as it stands
}

/** The alphabet of a normalised corpus whose characters `tally` counted, and what it drops. */
export function chooseAlphabet(tally: CharTally, mode: AlphabetMode): ChosenAlphabet {
  const letters = tally.entries().filter(([c]) => c !== ' ');
  const outside = letters.filter(([c]) => !inText8(c));
  const all = letters.reduce((s, [, n]) => s + n, 0);
  const out = outside.reduce((s, [, n]) => s + n, 0);
  const own = mode === 'own' || (mode === 'auto' && out > OWN_SHARE * all);
  if (!own) {
    const restrict = letters.some(([c]) => !(c >= 'a' && c <= 'z'));
    return { alphabet: TEXT8, dropped: { total: out, top: topCounts(outside) }, restrict };
  }
  const symbols = [...inCodePointOrder(letters.map(([c]) => c)), ' '];
  return { alphabet: { symbols, pad: false }, dropped: { total: 0, top: [] }, restrict: false };
}

/**
 * A normalised text restricted to an alphabet that holds the space, given in pieces: each
 * character outside the alphabet a space, runs of spaces one, none leading or trailing.
 */
export class Restrict {
  readonly #index: SymbolIndex;
  readonly #strip: boolean; // text8's alphabet: marks are stripped first
  #space = false; // a space is owed before the next kept character
  #started = false;

  /** `tally`, when given, counts the marks stripped. */
  constructor(
    alphabet: Alphabet,
    private readonly emit: (s: string) => void,
    private readonly tally?: FoldTally,
  ) {
    this.#index = new SymbolIndex(alphabet.symbols);
    this.#strip = sameAlphabet(alphabet, TEXT8);
  }

  push(piece: string): void {
    const s = this.#strip && /[^ -~]/.test(piece) ? stripMarks(piece, this.tally) : piece;
    let out = '';
    for (const c of s) {
      if (c === ' ' || this.#index.of(c.codePointAt(0)!) < 0) {
        this.#space = this.#started;
        continue;
      }
      if (this.#space) out += ' ';
      this.#space = false;
      this.#started = true;
      out += c;
    }
    if (out) this.emit(out);
  }
}

/** `text` restricted to `alphabet` in one piece. */
export function restrictText(text: string, alphabet: Alphabet): string {
  const parts: string[] = [];
  new Restrict(alphabet, (s) => parts.push(s)).push(text);
  return parts.join('');
}
