// One document's bytes decoded as UTF-8, chunk by chunk (source.ts, zip-source.ts), refused at
// once when its first megabyte shows it is not UTF-8 text: a UTF-16 byte-order mark, a NUL byte
// (a binary file), or more than 1% of its characters undecodable. A corpus build of a binary file
// thus stops within its first megabyte, whatever the file's size, with a one-line reason.
import { StringDecoder } from 'node:string_decoder';

/** How much of a document is examined. */
export const TEXT_CHECK_BYTES = 1 << 20;
/** The share of undecodable characters in that much that is still taken as text (a few stray bytes). */
const BAD_SHARE = 0.01;

export class Utf8Document {
  readonly #dec = new StringDecoder('utf8');
  #seen = 0;
  #chars = 0;
  #bad = 0;

  /** `name` names the document in a refusal. */
  constructor(readonly name: string) {}

  /** The text of the next bytes. */
  write(bytes: Buffer): string {
    const text = this.#dec.write(bytes);
    if (this.#seen < TEXT_CHECK_BYTES) this.#check(bytes, text);
    return text;
  }

  /** The text held back at the end (an incomplete character), once the document's bytes are all written. */
  end(): string {
    const text = this.#dec.end();
    if (this.#seen < TEXT_CHECK_BYTES) this.#check(Buffer.alloc(0), text, true);
    return text;
  }

  #check(bytes: Buffer, text: string, last = false): void {
    if (this.#seen === 0 && bytes.length >= 2) {
      const bom =
        (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
      if (bom)
        throw new Error(
          `${this.name} is UTF-16 text (it starts with a byte-order mark); sjd reads UTF-8: convert it first (iconv -f UTF-16 -t UTF-8)`,
        );
    }
    const head = bytes.subarray(0, TEXT_CHECK_BYTES - this.#seen);
    if (head.includes(0))
      throw new Error(`${this.name} is not text: it holds NUL bytes (a binary file?)`);
    this.#seen += head.length;
    this.#chars += text.length;
    for (let i = text.indexOf('\ufffd'); i >= 0; i = text.indexOf('\ufffd', i + 1)) this.#bad++;
    if (
      (this.#seen >= TEXT_CHECK_BYTES || last) &&
      this.#bad > BAD_SHARE * Math.max(this.#chars, 1)
    )
      throw new Error(
        `${this.name} is not UTF-8 text: ${((100 * this.#bad) / this.#chars).toFixed(0)}% of the characters in its first megabyte do not decode`,
      );
  }
}
