// The alphabet of a character-level model (a sequences model, a text corpus): its symbols in their
// order (declared, which a 1-D Gaussian W over values follows; or read from the data in
// code-point order), one token per symbol, and a last token PAD when the model's sequences are
// padded to a common length. A symbol is one character (a Unicode code point). Text8's alphabet
// is a-z and the space, tokens 0..26.

/** A model's symbols and whether its last token is the padding after a shorter sequence. */
export interface Alphabet {
  symbols: string[];
  pad: boolean;
}

/** text8's 27 symbols: a-z = 0..25, the space 26 (app:text8). */
export const TEXT8: Alphabet = { symbols: Array.from('abcdefghijklmnopqrstuvwxyz '), pad: false };

/** The token count of a model over `a`: one per symbol, plus PAD when padded. */
export const tokenCount = (a: Alphabet): number => a.symbols.length + (a.pad ? 1 : 0);

/** Two alphabets with the same symbols in the same order and the same padding. */
export const sameAlphabet = (a: Alphabet, b: Alphabet): boolean =>
  a.pad === b.pad && a.symbols.join('\u0000') === b.symbols.join('\u0000');

/** A declared alphabet ("ACGT"): its characters, each once. */
export function declaredAlphabet(spec: string): string[] {
  const symbols = Array.from(spec);
  if (symbols.length < 2) throw new Error(`--alphabet '${spec}': at least two symbols`);
  const seen = new Set<string>();
  for (const s of symbols) {
    if (seen.has(s)) throw new Error(`--alphabet '${spec}': '${s}' is given twice`);
    if (/\s/.test(s)) throw new Error(`--alphabet '${spec}': whitespace is not a symbol`);
    seen.add(s);
  }
  return symbols;
}

const byCodePoint = (a: string, b: string) => a.codePointAt(0)! - b.codePointAt(0)!;

/** Every symbol the sequences use, in code-point order. */
export function alphabetOf(sequences: string[]): string[] {
  const seen = new Set<string>();
  for (const s of sequences) for (const c of s) seen.add(c);
  return [...seen].sort(byCodePoint);
}

/** Symbols in code-point order. */
export const inCodePointOrder = (symbols: Iterable<string>): string[] =>
  [...symbols].sort(byCodePoint);

/**
 * A symbol's token, looked up by code point: a table for the Basic Multilingual Plane (the
 * text8 hot path, tens of millions of characters) and a map for the rest.
 */
export class SymbolIndex {
  readonly #bmp = new Int32Array(0x10000).fill(-1);
  readonly #astral = new Map<number, number>();

  constructor(readonly symbols: string[]) {
    symbols.forEach((s, i) => {
      const cp = s.codePointAt(0)!;
      if (cp < 0x10000) this.#bmp[cp] = i;
      else this.#astral.set(cp, i);
    });
  }

  /** The token of the code point `cp`, or -1 outside the alphabet. */
  of(cp: number): number {
    return cp < 0x10000 ? this.#bmp[cp]! : (this.#astral.get(cp) ?? -1);
  }

  /** The alphabet as an error message shows it: its symbols, or their count when many. */
  get shown(): string {
    const n = this.symbols.length;
    return n <= 64 ? this.symbols.join('') : `of ${n} symbols`;
  }

  /**
   * A string's tokens, one a code point; a character outside the alphabet throws, naming its
   * 1-based position.
   */
  encode(s: string): Int32Array {
    const out = new Int32Array(s.length); // at most one token a code unit
    let n = 0;
    for (let i = 0; i < s.length; i++) {
      let cp = s.charCodeAt(i);
      if (cp >= 0xd800 && cp < 0xdc00 && i + 1 < s.length) {
        cp = s.codePointAt(i)!;
        if (cp >= 0x10000) i++;
      }
      const t = this.of(cp);
      if (t < 0)
        throw new Error(
          `'${String.fromCodePoint(cp)}' at position ${n + 1} is not in the alphabet ${this.shown}`,
        );
      out[n++] = t;
    }
    return n === out.length ? out : out.slice(0, n);
  }
}

/** Tokens back to a string; PAD (and anything past it) ends the sequence. */
export function decodeTokens(tokens: ArrayLike<number>, a: Alphabet): string {
  let out = '';
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t >= a.symbols.length) break; // PAD
    out += a.symbols[t];
  }
  return out;
}
