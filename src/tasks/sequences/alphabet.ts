// The alphabet of a sequences model: its symbols in their declared order (which a 1-D Gaussian W
// over values follows), or, read from the data, every symbol the sequences use in code-point
// order; one token per symbol, and a last token PAD when the model's sequences are padded to a
// common length. A symbol is one character (a Unicode code point).

/** A model's symbols and whether its last token is the padding after a shorter sequence. */
export interface Alphabet {
  symbols: string[];
  pad: boolean;
}

/** The token count of a model over `a`: one per symbol, plus PAD when padded. */
export const tokenCount = (a: Alphabet): number => a.symbols.length + (a.pad ? 1 : 0);

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

/** Every symbol the sequences use, in code-point order. */
export function alphabetOf(sequences: string[]): string[] {
  const seen = new Set<string>();
  for (const s of sequences) for (const c of s) seen.add(c);
  return [...seen].sort((a, b) => a.codePointAt(0)! - b.codePointAt(0)!);
}

/** A sequence's tokens; a symbol outside the alphabet throws, naming its 1-based position. */
export function encodeSymbols(s: string, symbols: string[]): number[] {
  const index = new Map(symbols.map((c, i) => [c, i]));
  return Array.from(s, (c, i) => {
    const t = index.get(c);
    if (t === undefined)
      throw new Error(`'${c}' at position ${i + 1} is not in the alphabet ${symbols.join('')}`);
    return t;
  });
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
