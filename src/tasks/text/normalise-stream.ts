// text8's normalisation (normalise.ts, app:text8) on text that arrives in pieces of any size, so a
// corpus of any size is normalised in bounded memory: the output is exactly normaliseText's on
// the concatenated text, wherever the pieces break. A line that arrives whole is normalised as
// normaliseText does; a line that spans pieces (text8 is one line of 100M characters) runs
// through a chain of WIKIFIL substitutions, each of which passes on the text before the first
// place its scan has not settled (regex-prefix.ts) and holds the rest. A construct still open
// after `limit` characters of one line (an unclosed `<` before megabytes of text) is the one
// departure: it is cut there, the same way for every split into pieces, so memory stays bounded.
// With marks kept (NFKC), the fold holds a piece's last letter and its marks until the next
// piece, where a mark split from its letter still composes with it.
import {
  DOC_TAG_CHARS,
  docTag,
  type FoldTally,
  foldChars,
  type Marks,
  WIKIFIL,
  wikifilLine,
} from './normalise.js';
import { type OpenPrefix, openPrefix } from './regex-prefix.js';

/** Characters of one line a substitution may hold while a construct is open. */
export const HOLD_LIMIT = 1 << 20;

type Sink = (text: string) => void;

const PREFIXES: OpenPrefix[] = WIKIFIL.map(([re]) => openPrefix(re));
/** A character that can start some substitution's match: text without one passes unchanged. */
const MARKUP = new RegExp(PREFIXES.map((p) => p.first.source).join('|'));

/** One WIKIFIL substitution on a line that arrives in pieces. */
class Substitution {
  private carry = ''; // the text from the first unsettled position on
  private readonly re: RegExp;
  private readonly to: string;
  private readonly first: RegExp;
  private readonly open: RegExp;

  constructor(
    k: number,
    private readonly limit: number,
    private readonly next: Sink,
  ) {
    const [re, to] = WIKIFIL[k]!;
    this.re = new RegExp(re.source, re.flags);
    this.to = to;
    ({ first: this.first, open: this.open } = PREFIXES[k]!);
  }

  get idle(): boolean {
    return this.carry === '';
  }

  private isOpen(x: string, i: number): boolean {
    this.open.lastIndex = i;
    return this.open.test(x);
  }

  /**
   * An attempt of the scan at p is cut when it is still open after `limit` characters, held when
   * it is open up to x's end (more text may settle it), and settled otherwise.
   */
  private attempt(x: string, p: number): 'cut' | 'hold' | undefined {
    if (x.length - p >= this.limit)
      return this.isOpen(x.slice(p, p + this.limit), 0) ? 'cut' : undefined;
    return this.isOpen(x, p) ? 'hold' : undefined;
  }

  /** The first attempt from `pos` on that is cut or held, or x.length if none. */
  private unsettled(x: string, pos: number): [number, 'cut' | 'hold' | undefined] {
    for (;;) {
      this.re.lastIndex = pos;
      const m = this.re.exec(x);
      const end = m ? m.index : x.length;
      // Between matches the scan fails at every position; a failure may yet become a match.
      this.first.lastIndex = pos;
      for (let f = this.first.exec(x); f && f.index < end; f = this.first.exec(x)) {
        const a = this.attempt(x, f.index);
        if (a) return [f.index, a];
        this.first.lastIndex = f.index + 1;
      }
      if (!m) return [x.length, undefined];
      const a = this.attempt(x, m.index); // a match that may yet grow
      if (a) return [m.index, a];
      pos = m.index + m[0].length;
    }
  }

  private emit(s: string): void {
    if (s) this.next(s.replace(this.re, this.to));
  }

  push(text: string): void {
    const x = this.carry + text;
    let start = 0; // where the scan (re)starts: the line's start, a hold or a cut
    for (;;) {
      const [c, a] = this.unsettled(x, start);
      this.emit(x.slice(start, c));
      if (a !== 'cut') {
        this.carry = x.slice(c);
        return;
      }
      this.emit(x.slice(c, c + this.limit));
      start = c + this.limit;
    }
  }

  /** The line ended: what is held is settled. */
  end(): void {
    this.emit(this.carry);
    this.carry = '';
  }
}

/**
 * A character that may compose with the one before it under NFKC: a combining mark, a Hangul
 * vowel or final jamo, or the second half of a surrogate pair.
 */
const COMPOSES_BACK = /[\p{M}\u1160-\u11ff\ud7b0-\ud7ff\udc00-\udfff]/u;

/** Where the text that may still compose with what follows begins: the last starter of `t`. */
function lastStarter(t: string): number {
  let i = t.length - 1;
  while (i > 0 && COMPOSES_BACK.test(t[i]!)) i--;
  return Math.max(i, 0);
}

/** spellAndFold on the concatenation of pieces, with a space wherever separate() is called. */
class Fold {
  private started = false;
  private space = false;
  private held = ''; // marks kept: the last starter and its marks, which the next piece may extend

  constructor(
    private readonly emit: Sink,
    private readonly tally?: FoldTally,
    private readonly marks: Marks = 'strip',
  ) {}

  push(s: string): void {
    if (this.marks === 'strip') {
      this.fold(s);
      return;
    }
    const t = this.held + s;
    const cut = lastStarter(t);
    this.held = t.slice(cut);
    this.fold(t.slice(0, cut));
  }

  private fold(s: string): void {
    const m = foldChars(s, this.tally, this.marks); // letters and single spaces
    if (m === '') return;
    const lead = m.charCodeAt(0) === 32;
    const trail = m.length > 1 && m.charCodeAt(m.length - 1) === 32;
    const core = m.slice(lead ? 1 : 0, trail ? -1 : m.length);
    if (lead) this.space = true;
    if (core === '') return;
    this.emit(this.space && this.started ? ` ${core}` : core);
    this.started = true;
    this.space = trail;
  }

  separate(): void {
    const h = this.held;
    this.held = '';
    if (h) this.fold(h);
    this.space = true;
  }
}

/**
 * Normalises documents (files) given in pieces; the output, passed to `emit` in pieces, is the
 * documents' normaliseText outputs joined by single spaces (empty ones left out).
 */
export class StreamNormaliser {
  private readonly fold: Fold;
  private readonly chain: Substitution[];
  private title = false; // the next line is a title
  private cr = false; // the last piece ended in '\r'
  private line: 'head' | 'drop' | 'text' = 'head';
  private head = ''; // the start of a line not yet classified

  /** `tally`, when given, counts what folding drops; `marks`, what it does with marks (normalise.ts). */
  constructor(
    emit: Sink,
    private readonly limit = HOLD_LIMIT,
    tally?: FoldTally,
    marks: Marks = 'strip',
  ) {
    this.fold = new Fold(emit, tally, marks);
    const chain: Substitution[] = [];
    for (let k = WIKIFIL.length - 1; k >= 0; k--) {
      const next = chain[0] ?? this.fold;
      chain.unshift(new Substitution(k, limit, (s) => next.push(s)));
    }
    this.chain = chain;
  }

  /** The next piece of the current document. */
  push(text: string): void {
    if (this.cr) text = `\r${text}`;
    this.cr = text.endsWith('\r'); // it may be the '\r' of '\r\n'
    if (this.cr) text = text.slice(0, -1);
    let i = 0;
    for (;;) {
      const nl = text.indexOf('\n', i);
      if (nl < 0) {
        if (i < text.length) this.partLine(text.slice(i));
        return;
      }
      const end = nl > i && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      this.endLine(text.slice(i, end));
      i = nl + 1;
    }
  }

  /** The current document ended (its last line need not end in a newline). */
  endDocument(): void {
    if (this.cr) this.partLine('\r');
    this.endLine('');
    this.title = false;
    this.cr = false;
    this.fold.separate();
  }

  /** normaliseText's rule for a line by its start: dropped or text. */
  private classify(start: string): 'drop' | 'text' {
    const tag = docTag(start);
    if (tag === 'open') this.title = true;
    if (tag !== undefined) return 'drop';
    if (this.title) {
      this.title = false;
      return 'drop';
    }
    return 'text';
  }

  private toChain(s: string): void {
    if (this.chain.every((c) => c.idle) && !MARKUP.test(s)) this.fold.push(s);
    else this.chain[0]!.push(s);
  }

  /** More of the current line, whose end is still to come. */
  private partLine(s: string): void {
    if (this.line === 'head') {
      this.head += s;
      if (this.head.length < DOC_TAG_CHARS) return;
      this.line = this.classify(this.head);
      s = this.head;
      this.head = '';
    }
    if (this.line === 'text') this.toChain(s);
  }

  /** The rest of the current line, up to its newline. */
  private endLine(s: string): void {
    if (this.line === 'head') {
      const whole = this.head + s;
      this.head = '';
      if (this.classify(whole) === 'text') {
        if (whole.length <= this.limit) this.fold.push(wikifilLine(whole));
        else this.chainEnd(whole);
      }
    } else if (this.line === 'text') this.chainEnd(s);
    this.line = 'head';
    this.fold.separate();
  }

  private chainEnd(s: string): void {
    this.toChain(s);
    for (const c of this.chain) c.end();
  }
}
