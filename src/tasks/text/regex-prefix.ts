// The unfinished matches of a regular expression, for substituting it on text that arrives in
// pieces (normalise-stream.ts, app:text8): a scan of `re` over text that may still grow has
// settled at position i unless the text from i to its end is a prefix of some match of `re`.
// openPrefix(re) is a sticky test of that, built from re's source for the subset of regular
// expressions wikifil's substitutions use (characters, escapes, classes, * + ? and groups of
// alternatives; no anchors, lookaround or back-references, which would break the argument).
// Runs (* and +) are taken whole, as possessive runs (emulated with a lookahead and a named
// back-reference), so the test is linear in the run's length; that is exact for patterns whose
// runs cannot take the character that follows them, as in every pattern of WIKIFIL, and errs
// on the side of "unfinished" otherwise, which only makes the stream hold more text.

type Item = { atom: string; q: '' | '*' | '+' | '?' } | { alts: Item[][] };

function unsupported(src: string, at: number): never {
  throw new Error(
    `openPrefix: /${src}/ uses syntax beyond characters, classes, * + ? and groups (at ${at})`,
  );
}

/** Parses `src` from `pos` up to the end or the `)` closing a group: the group's alternatives. */
function parse(src: string, pos: number, inGroup: boolean): [Item[][], number] {
  const at = (k: number) => src[k] ?? '\0';
  const alts: Item[][] = [[]];
  while (pos < src.length) {
    const ch = src[pos]!;
    if (ch === ')') {
      if (!inGroup) unsupported(src, pos);
      return [alts, pos + 1];
    }
    if (ch === '|') {
      alts.push([]);
      pos++;
      continue;
    }
    if (ch === '(') {
      pos++;
      if (src.startsWith('?:', pos)) pos += 2;
      else if (src[pos] === '?') unsupported(src, pos);
      const [sub, end] = parse(src, pos, true);
      if ('*+?{'.includes(at(end))) unsupported(src, end);
      alts.at(-1)!.push({ alts: sub });
      pos = end;
      continue;
    }
    let atom: string;
    if (ch === '\\') {
      if (/[1-9bBkcux0]/.test(at(pos + 1))) unsupported(src, pos);
      atom = src.slice(pos, pos + 2);
    } else if (ch === '[') {
      let j = pos + 1;
      if (src[j] === '^') j++;
      if (src[j] === ']') j++;
      while (j < src.length && src[j] !== ']') j += src[j] === '\\' ? 2 : 1;
      if (j >= src.length) unsupported(src, pos);
      atom = src.slice(pos, j + 1);
    } else if ('^$*+?{'.includes(ch)) {
      unsupported(src, pos);
    } else {
      atom = ch;
    }
    pos += atom.length;
    const q = '*+?'.includes(at(pos)) ? (src[pos++] as '*' | '+' | '?') : '';
    if (at(pos) === '{' || (q !== '' && '*+?'.includes(at(pos)))) unsupported(src, pos);
    alts.at(-1)!.push({ atom, q });
  }
  if (inGroup) unsupported(src, pos);
  return [alts, pos];
}

/** A regex source for every prefix (the empty one included) of the strings items[i..] match. */
function prefixes(items: Item[], i: number, names: { n: number }): string {
  if (i === items.length) return '';
  const it = items[i]!;
  if ('alts' in it)
    return `(?:${it.alts.map((a) => prefixes([...a, ...items.slice(i + 1)], 0, names)).join('|')})`;
  const rest = prefixes(items, i + 1, names);
  if (it.q === '?') return `${it.atom}?${rest}`;
  if (it.q === '') return `(?:${it.atom}${rest})?`;
  const name = `r${names.n++}`;
  const run = `(?=(?<${name}>${it.atom}${it.q}))\\k<${name}>`;
  return it.q === '*' ? `${run}${rest}` : `(?:${run}${rest})?`;
}

/** The parts of `re` a stream needs: its first atom (every match starts with it) and the test. */
export interface OpenPrefix {
  /** Finds the next position where a match could start (global). */
  first: RegExp;
  /** Sticky: matches at i when text[i..] could still grow into a match of `re`. */
  open: RegExp;
}

export function openPrefix(re: RegExp): OpenPrefix {
  const [alts] = parse(re.source, 0, false);
  const items: Item[] = alts.length === 1 ? alts[0]! : [{ alts }];
  const head = items[0];
  if (!head || 'alts' in head || head.q !== '') unsupported(re.source, 0);
  const flags = re.flags.replace(/[gy]/g, '');
  return {
    first: new RegExp(head.atom, `${flags}g`),
    open: new RegExp(`(?:${prefixes(items, 0, { n: 0 })})$`, `${flags}y`),
  };
}
