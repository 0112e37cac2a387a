// text8's normalisation (sec:exp-text8, app:text8; Matt Mahoney's wikifil.pl, which made text8
// from enwik9), applied to WikiExtractor output or plain text, in any language: `<doc ...>` /
// `</doc>` lines and the title line WikiExtractor writes after `<doc>` are dropped (wikifil keeps
// only an article's <text>), character entities decoded, references, tags, URLs, templates and
// link targets removed as wikifil does; then letters are folded: lowercased and, as `marks` says,
//   strip  decomposed by Unicode NFKD with the accents (combining marks) stripped, so that 'Café'
//          is 'cafe' where wikifil made it 'caf', and the Latin letters NFKD keeps whole spelled
//          out ('ß' 'ss', 'æ' 'ae'): text8's letters;
//   keep   composed by NFKC, every mark kept, so that Hindi 'मैं' keeps its vowel sign and
//          Japanese 'が' its voicing (compatibility forms such as 'ﬁ' or full-width letters unified):
//          a corpus's own letters, of which text8's are stripMarks' (text-alphabet.ts);
// each digit is spelled as a word (" zero " ... " nine "), every other character made a space,
// and runs of spaces collapsed to one. An ASCII line folds alike either way (wikifil's path).
// Which letters a corpus keeps is its alphabet's choice (text-alphabet.ts). This is the
// whole-string definition; normalise-stream.ts gives the same output on text in pieces.
const DIGITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** wikifil's substitutions on one line, in its order: character entities, then markup. */
export const WIKIFIL: readonly (readonly [RegExp, string])[] = [
  [/&amp;/g, '&'],
  [/&lt;/g, '<'],
  [/&gt;/g, '>'],
  [/&quot;/g, '"'],
  [/&nbsp;/g, ' '],
  [/<ref[^<]*<\/ref>/g, ''], // references
  [/<[^>]*>/g, ''], // remaining tags
  [/\[https?:[^\] ]*/g, '['], // external links keep their visible text
  [/\|(thumb|left|right|\d+px)/gi, ''],
  [/\[\[image:[^[\]]*\|/gi, ''],
  [/\[\[category:([^|\]]*)[^\]]*\]\]/gi, '[[$1]]'],
  [/\[\[[a-z-]*:[^\]]*\]\]/g, ''], // interlanguage links
  [/\[\[[^|\]]*\|/g, '[['], // link targets: keep the label
  [/\{\{[^}]*\}\}/g, ''], // templates
  [/\{[^}]*\}/g, ''],
  [/&[^;\s]*;/g, ' '], // other entities
];

/** A character every substitution of WIKIFIL needs: a line without one is left as it is. */
const WIKIFIL_TRIGGER = /[&<[{|]/;

/** One line of wiki prose in wikifil's order of substitutions; the result may hold any case. */
export function wikifilLine(line: string): string {
  if (!WIKIFIL_TRIGGER.test(line)) return line;
  let s = line;
  for (const [re, to] of WIKIFIL) s = s.replace(re, to);
  return s;
}

/** Latin letters that NFKD leaves whole, lowercase, spelled in a-z. */
const LATIN: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ł: 'l',
  ı: 'i',
};
const LATIN_RE = new RegExp(`[${Object.keys(LATIN).join('')}]`, 'g');

/** What folding dropped: accents stripped, and other characters (by character) made spaces. */
export interface FoldTally {
  accents: number;
  other: Map<string, number>;
}

export const emptyTally = (): FoldTally => ({ accents: 0, other: new Map() });

const spellDigits = (s: string) => s.replace(/[0-9]/g, (d) => ` ${DIGITS[Number(d)]} `);

/** What folding does with combining marks: strips them (text8's letters) or keeps them. */
export type Marks = 'strip' | 'keep';

/**
 * Lowercase text without its marks: NFKD with the combining marks dropped, and the Latin letters
 * NFKD keeps whole spelled in a-z; `tally`, when given, counts the marks dropped.
 */
export function stripMarks(s: string, tally?: FoldTally): string {
  const decomposed = s.normalize('NFKD');
  const x = decomposed.replace(/\p{M}/gu, '');
  if (tally) tally.accents += decomposed.length - x.length;
  return x.replace(LATIN_RE, (c) => LATIN[c]!).replace(/[A-Z]/g, (c) => c.toLowerCase());
}

const OTHER_ASCII = /[^a-zA-Z0-9\s]/g;
const OTHER = /[^\p{L}\p{M}0-9\s]/gu;

function countOther(s: string, re: RegExp, tally: FoldTally): void {
  for (const [c] of s.matchAll(re)) tally.other.set(c, (tally.other.get(c) ?? 0) + 1);
}

/**
 * Letters lowercased with their marks stripped or kept (`marks`), digits spelled, every run of
 * other characters one space (none trimmed). An ASCII string takes wikifil's own path (A-Z
 * lowercased); `tally`, when given, counts what was dropped.
 */
export function foldChars(s: string, tally?: FoldTally, marks: Marks = 'strip'): string {
  const x = s;
  if (/[^ -~\t\n\r]/.test(x)) {
    if (tally) countOther(x, OTHER, tally);
    const lower = x.toLowerCase();
    if (marks === 'keep')
      return spellDigits(lower.normalize('NFKC')).replace(/[^\p{L}\p{M}]+/gu, ' ');
    return spellDigits(stripMarks(lower, tally)).replace(/[^\p{L}]+/gu, ' ');
  }
  if (tally) countOther(x, OTHER_ASCII, tally);
  // printable ASCII: toLowerCase changes A-Z alone
  return spellDigits(x.toLowerCase()).replace(/[^a-z]+/g, ' ');
}

/** text -> lowercase letters and single spaces, no leading or trailing space. */
export function spellAndFold(s: string, marks: Marks = 'strip'): string {
  return foldChars(s, undefined, marks).trim();
}

/** How many characters of a line docTag needs to see. */
export const DOC_TAG_CHARS = 6;

/** A WikiExtractor document's opening (`<doc ...>`) or closing (`</doc>`) line, by its start. */
export function docTag(line: string): 'open' | 'close' | undefined {
  if (line.startsWith('<doc ') || line.startsWith('<doc>')) return 'open';
  if (line.startsWith('</doc>')) return 'close';
  return undefined;
}

/** WikiExtractor output or plain text -> lowercase letters (any script) and single spaces. */
export function normaliseText(raw: string, marks: Marks = 'strip'): string {
  const out: string[] = [];
  let title = false;
  for (const line of raw.split(/\r?\n/)) {
    const tag = docTag(line);
    if (tag === 'open') {
      title = true;
      continue;
    }
    if (tag === 'close') continue;
    if (title) {
      title = false;
      continue;
    }
    const folded = spellAndFold(wikifilLine(line), marks);
    if (folded) out.push(folded);
  }
  return out.join(' ');
}

/** True when `text` already is text8 (one line of a-z and spaces, an optional final newline). */
export function isText8(text: string): boolean {
  return /^[a-z ]*\n?$/.test(text) && text.trim().length > 0;
}
