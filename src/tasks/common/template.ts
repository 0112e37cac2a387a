// Templates: conditional generation by clamping, as Sudoku conditions on its clues, for any model
// over an alphabet (text, sequences). A template fixes known symbols at their positions and leaves
// holes; the sampler keeps the known ones committed on their anchors from the start (never moved,
// never counted as blanks) and fills the rest. Built from
//   prompt  a prefix (the rest generated);
//   suffix  an ending, placed so the result ends with it;
//   infill  a whole template with holes marked '_' (refused in an alphabet that holds '_');
//   length  the result's length, at most the model's L (default: the infill's, else L).
// Shorter than L: a padded model's positions past the length are clamped to PAD, and PAD is ruled
// out at the holes before them (exclusion.ts), so it generates a sequence of exactly that length;
// an unpadded one samples at L and the result is cut (cutRows). A field
// is first normalised as the model's data was (text: normalise.ts), and the template says which
// fields that changed, so that a command can show it.
import type { SJDProcess } from '../../process/index.js';
import {
  type BatchedSampleOptions,
  type Exclusion,
  type SamplingDefaults,
  type UnconditionalOptions,
  unconditionalSampling,
} from '../../sampling/index.js';
import { type Tensor, tensor } from '../../torch/index.js';
import { type Alphabet, SymbolIndex } from './alphabet.js';

export const HOLE = '_';

export interface TemplateSpec {
  prompt?: string;
  suffix?: string;
  infill?: string;
  length?: number;
}

export type TemplateField = 'prompt' | 'suffix' | 'infill';

export interface Template {
  length: number; // symbols in the result (<= L)
  tokens: number[]; // [L] the known tokens (0 at holes)
  known: boolean[]; // [L] clamped positions
  /** a padded model's PAD token: clamped past the length, ruled out at the holes */
  pad?: number;
  /** the fields normalisation changed, as they were used */
  normalised?: Partial<Record<TemplateField, string>>;
}

/** How errors name a field: the CLI's flags (default), or the API's fields. */
export type FieldName = (field: TemplateField | 'length') => string;
export const FLAG_NAMES: FieldName = (f) => `--${f}`;

export interface TemplateOptions {
  alphabet: Alphabet;
  name?: FieldName;
  /** a field as the model's data was normalised (default: as given) */
  normalise?: (s: string) => string;
  /** the alphabet as errors describe it (default: its symbols) */
  described?: string;
  /** what one position holds, in messages (default 'symbols') */
  unit?: string;
  /** the kind of result, in messages (default 'sequence') */
  result?: string;
}

/** A field normalised with an infill's holes kept where they are. */
function normaliseField(s: string, holes: boolean, f: (s: string) => string): string {
  return holes ? s.split(HOLE).map(f).join(HOLE) : f(s);
}

/** A template's parts as tokens: -1 marks an infill's hole. */
export interface TemplateParts {
  prompt?: number[];
  suffix?: number[];
  infill?: number[];
}

export interface PlaceOptions {
  name?: FieldName;
  unit?: string; // what one position holds, in messages (default 'symbols')
  result?: string; // the kind of result, in messages (default 'sequence')
  /** a padded model's PAD token: clamped past the length, so the result ends there */
  pad?: number;
}

/**
 * Tokenised parts placed in a template of L positions: the infill from the start, the prompt at
 * the start, the suffix ending at `length` (default: the infill's, else L); null when nothing is
 * asked. Errors are one line naming the field as `o.name` does.
 */
export function placeTemplate(
  parts: TemplateParts,
  askedLength: number | undefined,
  L: number,
  o: PlaceOptions = {},
): Template | null {
  const name = o.name ?? FLAG_NAMES;
  const unit = o.unit ?? 'symbols';
  const result = o.result ?? 'sequence';
  const { prompt, suffix, infill } = parts;
  if (infill !== undefined && (prompt !== undefined || suffix !== undefined))
    throw new Error(
      `${name('infill')} is a whole template: give it alone, not with ${name('prompt')} or ${name('suffix')}`,
    );
  if (infill !== undefined && askedLength === undefined && infill.length > L)
    throw new Error(`${name('infill')} has ${infill.length} ${unit}; the model takes at most ${L}`);
  const length = askedLength ?? infill?.length ?? L;
  if (!(Number.isInteger(length) && length >= 1 && length <= L))
    throw new Error(
      `${name('length')} must be a whole number from 1 to the model's ${L}, got ${length}`,
    );
  const slots: number[] = new Array(L).fill(-1); // -1: a hole
  if (o.pad !== undefined) slots.fill(o.pad, length);
  const asked = prompt !== undefined || suffix !== undefined || infill !== undefined;
  if (!asked && (askedLength === undefined || o.pad === undefined)) {
    return askedLength === undefined
      ? null
      : { length, tokens: new Array(L).fill(0), known: new Array(L).fill(false) }; // cut (unpadded)
  }
  const place = (field: TemplateField, ts: number[], at: number) => {
    if (at < 0 || at + ts.length > length)
      throw new Error(`${name(field)}: ${ts.length} ${unit} do not fit a ${result} of ${length}`);
    ts.forEach((t, i) => {
      if (slots[at + i] !== -1 && t !== -1)
        throw new Error(
          `${name('prompt')} and ${name('suffix')} overlap at position ${at + i} (a ${result} of ${length})`,
        );
      if (t !== -1) slots[at + i] = t;
    });
  };
  if (infill !== undefined) place('infill', infill, 0);
  if (prompt !== undefined) place('prompt', prompt, 0);
  if (suffix !== undefined) place('suffix', suffix, length - suffix.length);
  return {
    length,
    tokens: slots.map((t) => Math.max(t, 0)),
    known: slots.map((t) => t >= 0),
    ...(o.pad !== undefined && { pad: o.pad }),
  };
}

/**
 * A template for a model of L positions over an alphabet; null when the spec asks for nothing
 * (unconditional). Errors name the fields as `o.name` does (the CLI's flags by default).
 */
export function makeTemplate(spec: TemplateSpec, L: number, o: TemplateOptions): Template | null {
  const name = o.name ?? FLAG_NAMES;
  const { alphabet } = o;
  const index = new SymbolIndex(alphabet.symbols);
  if (spec.infill !== undefined && index.of(HOLE.codePointAt(0)!) >= 0)
    throw new Error(
      `${name('infill')}: the model's alphabet holds '${HOLE}', the hole marker; use ${name('prompt')} and ${name('suffix')}`,
    );
  const tokensOf = (field: TemplateField, s: string): number[] =>
    Array.from(s, (c, i) => {
      if (field === 'infill' && c === HOLE) return -1;
      const t = index.of(c.codePointAt(0)!);
      if (t < 0)
        throw new Error(
          `${name(field)}: ${JSON.stringify(c)} at position ${i} is not in the model's alphabet (${o.described ?? index.shown}${field === 'infill' ? `; ${HOLE} marks a hole` : ''})`,
        );
      return t;
    });
  const normalised: Template['normalised'] = {};
  const parts: TemplateParts = {};
  for (const field of ['prompt', 'suffix', 'infill'] as const) {
    let v = spec[field];
    if (v === undefined) continue;
    if (o.normalise) {
      const n = normaliseField(v, field === 'infill', o.normalise);
      if (n !== v) normalised[field] = n;
      v = n;
    }
    parts[field] = tokensOf(field, v);
  }
  const pad = alphabet.pad ? alphabet.symbols.length : undefined;
  const t = placeTemplate(parts, spec.length, L, { name, unit: o.unit, result: o.result, pad });
  return t && Object.keys(normalised).length > 0 ? { ...t, normalised } : t;
}

/**
 * The sampler's condition of a template, or of one template a row: (start, size) -> the known
 * tokens [size, L] int64 and the clamped positions [size, L] bool of those rows.
 */
export function templateCondition(
  t: Template | Template[],
  n: number,
): (start: number, size: number) => { tokens: Tensor; mask: Tensor } {
  if (Array.isArray(t) && t.length !== n) throw new Error(`${t.length} templates for ${n} samples`);
  const row = (i: number) => (Array.isArray(t) ? t[i]! : t);
  const L = row(0).tokens.length;
  return (start, size) => {
    const rows = Array.from({ length: size }, (_, i) => row(start + i));
    return {
      tokens: tensor(
        rows.flatMap((r) => r.tokens),
        [size, L],
        'int64',
      ), // [size, L]
      mask: tensor(
        rows.flatMap((r) => r.known.map(Number)),
        [size, L],
        'uint8',
      ).to('bool'), // [size, L]
    };
  };
}

/**
 * A padded template's exclusion: PAD ruled out at every site of a row before the run of
 * committed PADs that ends it (its clamped tail), so no hole ends the sequence early; [B, L, K]
 * bool with K = pad + 1 (the symbols, then PAD).
 */
export function padAtHoles(pad: number): Exclusion {
  const K = pad + 1;
  return (tokens, committed) => {
    const [B, L] = tokens.shape as [number, number];
    const tok = tokens.toArray();
    const com = committed.toArray();
    const out = new Uint8Array(B * L * K);
    for (let b = 0; b < B; b++) {
      let tail = true; // every site from here to the end a committed PAD
      for (let i = L - 1; i >= 0; i--) {
        tail &&= com[b * L + i] === 1 && tok[b * L + i] === pad;
        if (!tail) out[(b * L + i) * K + pad] = 1;
      }
    }
    return tensor(out, [B, L, K]).to('bool'); // [B, L, K]
  };
}

/**
 * A batched run's options: the unconditional ones at a task's sampling defaults, and the known
 * tokens of `o.template` (one for every row, or one a row) clamped when there is one (a padded
 * one's PAD ruled out at its holes).
 */
export function templateSampling(
  proc: SJDProcess,
  o: UnconditionalOptions & { template?: Template | Template[] | null },
  defaults: SamplingDefaults,
): BatchedSampleOptions {
  const base = unconditionalSampling(proc, o, defaults);
  if (!o.template) return base;
  const pad = (Array.isArray(o.template) ? o.template[0] : o.template)?.pad;
  return {
    ...base,
    condition: templateCondition(o.template, o.n),
    ...(pad !== undefined && { exclude: padAtHoles(pad) }),
  };
}

/** Rows of tokens each cut to its template's length (one template for all, or one a row). */
export function cutRows(
  rows: number[][],
  template: Template | Template[] | null | undefined,
): number[][] {
  if (!template) return rows;
  return rows.map((r, i) => r.slice(0, (Array.isArray(template) ? template[i]! : template).length));
}
