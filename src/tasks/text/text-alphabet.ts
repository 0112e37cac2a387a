// A text corpus's alphabet (app:text8 for the default): after normalisation (normalise.ts) a corpus
// holds lowercase letters of any script and single spaces; its alphabet keeps
//   text8  a-z and the space: every other letter becomes a space (and is reported dropped);
//   own    every letter the corpus uses, in code-point order, then the space;
//   auto   text8 when the letters outside a-z are under OWN_SHARE of all letters (an English,
//          French or German corpus, whose accents normalisation strips), else own (Greek,
//          Russian, Japanese...).
// Restricting a text to its alphabet makes each letter outside it a space and collapses the runs
// of spaces that leaves, in one string or, in pieces, in bounded memory.
import { type Alphabet, inCodePointOrder, SymbolIndex, TEXT8 } from '../common/alphabet.js';

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

/** The alphabet of a normalised corpus whose characters `tally` counted, and what it drops. */
export function chooseAlphabet(
  tally: CharTally,
  mode: AlphabetMode,
): { alphabet: Alphabet; dropped: DroppedLetters } {
  const letters = tally.entries().filter(([c]) => c !== ' ');
  const outside = letters.filter(([c]) => !(c >= 'a' && c <= 'z'));
  const all = letters.reduce((s, [, n]) => s + n, 0);
  const out = outside.reduce((s, [, n]) => s + n, 0);
  const own = mode === 'own' || (mode === 'auto' && out > OWN_SHARE * all);
  if (!own) return { alphabet: TEXT8, dropped: { total: out, top: topCounts(outside) } };
  const symbols = [...inCodePointOrder(letters.map(([c]) => c)), ' '];
  return { alphabet: { symbols, pad: false }, dropped: { total: 0, top: [] } };
}

/**
 * A normalised text restricted to an alphabet that holds the space, given in pieces: each
 * character outside the alphabet a space, runs of spaces one, none leading or trailing.
 */
export class Restrict {
  readonly #index: SymbolIndex;
  #space = false; // a space is owed before the next kept character
  #started = false;

  constructor(
    alphabet: Alphabet,
    private readonly emit: (s: string) => void,
  ) {
    this.#index = new SymbolIndex(alphabet.symbols);
  }

  push(s: string): void {
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
