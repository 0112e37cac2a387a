// A stream of text cut into pieces that a tokenizer encodes one at a time (bounded memory) with
// the ids it gives the whole stream. A piece ends just before the last whitespace of a run that
// a word follows, a space by preference: the word keeps the space before it, as GPT-2's
// pre-tokenizer (` ?\p{L}+`, `\s+(?!\S)`) and its kind group them, and a run of whitespace is
// cut only before its last character, where those patterns cut it too. A piece starts with a
// space where the text has one, so a tokenizer that adds a leading space to its input (ByteLevel
// with add_prefix_space) adds none. Text with no such place for PIECE_LIMIT characters (no
// whitespace at all) is cut where it stands, the only cut a word can straddle.
export const PIECE_LIMIT = 1 << 20;

const WHITESPACE = /\s/;
const space = (s: string, i: number) => WHITESPACE.test(s[i]!);

/** The last i > 0 with `ok(i)` where s[i] is whitespace and s[i + 1] is not; -1 if none. */
function lastCut(s: string, ok: (i: number) => boolean): number {
  for (let i = s.length - 2; i > 0; i--) if (ok(i) && space(s, i) && !space(s, i + 1)) return i;
  return -1;
}

/** Where `s` is cut (its first piece's length), or 0 for no cut yet. */
export function cutPoint(s: string, force = false): number {
  const at = lastCut(s, (i) => s.charCodeAt(i) === 32);
  if (at > 0) return at;
  const any = lastCut(s, () => true);
  if (any > 0) return any;
  if (!force) return 0;
  const high = s.charCodeAt(s.length - 1);
  return high >= 0xd800 && high <= 0xdbff ? s.length - 1 : s.length; // keep a surrogate pair whole
}

/** Takes text in any pieces; gives `emit` pieces of about `target` characters cut at cutPoint. */
export class PieceCutter {
  private held = '';

  constructor(
    private readonly emit: (piece: string) => void,
    private readonly target: number,
    private readonly limit = PIECE_LIMIT,
  ) {}

  push(text: string): void {
    this.held += text;
    if (this.held.length < this.target) return;
    const at = cutPoint(this.held, this.held.length >= Math.max(this.limit, this.target));
    if (at === 0) return;
    const piece = this.held.slice(0, at);
    this.held = this.held.slice(at);
    this.emit(piece);
  }

  /** Emits what is held (the end of the stream). */
  end(): void {
    if (this.held !== '') this.emit(this.held);
    this.held = '';
  }
}
