// Text templates: conditional generation by clamping, as Sudoku conditions on its clues. A template
// fixes known characters at their positions and leaves holes; the sampler keeps the known ones
// committed on their anchors from the start (never moved, never counted as blanks) and fills the
// rest. Built from
//   prompt  a prefix (the rest generated);
//   suffix  an ending, placed so the text ends with it;
//   infill  a whole template with holes marked '_' (never a letter, so in no text alphabet);
//   length  the text's length, at most the model's L (default: the infill's, else L).
// A text shorter than L is sampled at L (the model's one length) and cut: the positions past it are
// generated freely and dropped. A field is first normalised as the corpus is (normalise.ts:
// capitals lowercased, digits spelled, every other run of characters one space; an infill's holes
// kept), and the template says which fields that changed, so that a command can show it.
import { type Alphabet, SymbolIndex, TEXT8 } from '../common/alphabet.js';
import { foldChars } from './normalise.js';

export const HOLE = '_';

export interface TemplateSpec {
  prompt?: string;
  suffix?: string;
  infill?: string;
  length?: number;
}

export interface TextTemplate {
  length: number; // characters in the text (<= L)
  tokens: number[]; // [L] the known tokens (0 at holes)
  known: boolean[]; // [L] clamped positions
  /** the fields normalisation changed, as they were used */
  normalised?: Partial<Record<'prompt' | 'suffix' | 'infill', string>>;
}

/** A template field as the corpus is normalised; `holes` keeps an infill's holes where they are. */
export function normaliseField(s: string, holes: boolean): string {
  return holes
    ? s
        .split(HOLE)
        .map((p) => foldChars(p))
        .join(HOLE)
    : foldChars(s);
}

/** How errors name a field: the CLI's flags (default), or the API's fields. */
export type FieldName = (field: 'prompt' | 'suffix' | 'infill' | 'length') => string;
const FLAGS: FieldName = (f) => `--${f}`;

/** The tokens of a template part; `holes` lets '_' through as -1. */
function tokensOf(what: string, s: string, holes: boolean, index: SymbolIndex): number[] {
  return Array.from(s, (c, i) => {
    if (holes && c === HOLE) return -1;
    const t = index.of(c.codePointAt(0)!);
    if (t < 0)
      throw new Error(
        `${what}: ${JSON.stringify(c)} at position ${i} is not in the model's alphabet (${index === TEXT8_INDEX ? 'a-z and space' : index.shown}${holes ? `; ${HOLE} marks a hole` : ''})`,
      );
    return t;
  });
}

const TEXT8_INDEX = new SymbolIndex(TEXT8.symbols);

/**
 * A template for a model of L positions; null when the spec asks for nothing (unconditional).
 * Errors name the fields as `name` does (the CLI's flags by default).
 */
export function textTemplate(
  spec: TemplateSpec,
  L: number,
  name: FieldName = FLAGS,
  alphabet: Alphabet = TEXT8,
): TextTemplate | null {
  const index = alphabet === TEXT8 ? TEXT8_INDEX : new SymbolIndex(alphabet.symbols);
  const tokens = (field: 'prompt' | 'suffix' | 'infill', s: string) =>
    tokensOf(name(field), s, field === 'infill', index);
  const normalised: TextTemplate['normalised'] = {};
  const fold = (field: 'prompt' | 'suffix' | 'infill', v: string | undefined) => {
    if (v === undefined) return undefined;
    const n = normaliseField(v, field === 'infill');
    if (n !== v) normalised[field] = n;
    return n;
  };
  const [prompt, suffix, infill] = [
    fold('prompt', spec.prompt),
    fold('suffix', spec.suffix),
    fold('infill', spec.infill),
  ];
  if (infill !== undefined && (prompt !== undefined || suffix !== undefined))
    throw new Error(
      `${name('infill')} is a whole template: give it alone, not with ${name('prompt')} or ${name('suffix')}`,
    );
  if (infill !== undefined && spec.length === undefined && infill.length > L)
    throw new Error(
      `${name('infill')} has ${infill.length} characters; the model takes at most ${L}`,
    );
  const length = spec.length ?? (infill !== undefined ? infill.length : L);
  if (!(Number.isInteger(length) && length >= 1 && length <= L))
    throw new Error(
      `${name('length')} must be a whole number from 1 to the model's ${L}, got ${length}`,
    );
  if (prompt === undefined && suffix === undefined && infill === undefined) {
    return spec.length === undefined
      ? null
      : { length, tokens: new Array(L).fill(0), known: new Array(L).fill(false) };
  }
  const slots: number[] = new Array(L).fill(-1); // -1: a hole
  const place = (what: string, ts: number[], at: number) => {
    if (at < 0 || at + ts.length > length)
      throw new Error(`${what}: ${ts.length} characters do not fit a text of ${length}`);
    ts.forEach((t, i) => {
      if (slots[at + i] !== -1 && t !== -1)
        throw new Error(
          `${name('prompt')} and ${name('suffix')} overlap at position ${at + i} (a text of ${length})`,
        );
      if (t !== -1) slots[at + i] = t;
    });
  };
  if (infill !== undefined) place(name('infill'), tokens('infill', infill), 0);
  if (prompt !== undefined) place(name('prompt'), tokens('prompt', prompt), 0);
  if (suffix !== undefined) {
    const ts = tokens('suffix', suffix);
    place(name('suffix'), ts, length - ts.length);
  }
  const known = slots.map((t) => t >= 0);
  const clamped = slots.map((t) => Math.max(t, 0));
  return Object.keys(normalised).length > 0
    ? { length, tokens: clamped, known, normalised }
    : { length, tokens: clamped, known };
}
