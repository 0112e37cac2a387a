// One split's token ids in a file (docs/text.md, "Token corpora"): a 24-byte header, then the ids.
//   bytes 0-7    magic `SJDTOKS1`
//   bytes 8-11   uint32 LE width of an id in bytes: 2 when vocab <= 65,536, else 4
//   bytes 12-15  uint32 LE vocab (ids are 0..vocab-1)
//   bytes 16-23  uint64 LE count of ids
//   then `count` ids, each `width` bytes, little-endian
// Written atomically whole (writeTokenFile) or appended piece by piece and split (TokenFileWriter,
// splitTokenFile: a corpus of any size in bounded memory); read back whole and checked
// (readTokenFile), every error one line naming the file and the byte it is about.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, ftruncateSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';
import { fsReason, writeAll, writeFileAtomic } from '../../../util/atomic.js';
import { withFile } from '../file-chunks.js';

export const TOKEN_MAGIC = 'SJDTOKS1';
export const HEADER_BYTES = 24;
const COPY_BYTES = 1 << 20;
const BIG_ENDIAN = endianness() === 'BE';

export type TokenIds = Uint16Array | Uint32Array;

export interface TokenFile {
  ids: TokenIds;
  vocab: number;
  /** sha256 of the whole file, header and ids */
  sha256: string;
}

/** Bytes an id takes for a vocabulary of `vocab`. */
export const tokenWidth = (vocab: number): 2 | 4 => (vocab <= 65536 ? 2 : 4);

function checkVocab(vocab: number): void {
  if (!(Number.isInteger(vocab) && vocab >= 1 && vocab <= 0xffffffff))
    throw new Error(`a token file's vocab is 1..${0xffffffff}, not ${vocab}`);
}

/** Little-endian ids in place (a no-op on little-endian machines, all but a few). */
function littleEndian(bytes: Uint8Array, width: number): void {
  if (!BIG_ENDIAN) return;
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (width === 2) b.swap16();
  else b.swap32();
}

/** The header of a file of `count` ids. */
function header(vocab: number, count: number): Buffer {
  const h = Buffer.alloc(HEADER_BYTES);
  h.write(TOKEN_MAGIC, 0, 'latin1');
  h.writeUInt32LE(tokenWidth(vocab), 8);
  h.writeUInt32LE(vocab, 12);
  h.writeBigUInt64LE(BigInt(count), 16);
  return h;
}

/** `ids` as little-endian bytes of the width `vocab` takes; an id outside 0..vocab-1 is refused. */
function idBytes(ids: ArrayLike<number>, vocab: number, where: string): Buffer {
  const out = tokenWidth(vocab) === 2 ? new Uint16Array(ids.length) : new Uint32Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const t = ids[i]!;
    if (!(Number.isInteger(t) && t >= 0 && t < vocab))
      throw new Error(`${where}: token ${t} at index ${i} is outside 0..${vocab - 1}`);
    out[i] = t;
  }
  const bytes = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  littleEndian(bytes, out.BYTES_PER_ELEMENT);
  return bytes;
}

/** Writes `ids` to a token file at `path`, atomically. */
export function writeTokenFile(path: string, ids: ArrayLike<number>, vocab: number): void {
  checkVocab(vocab);
  const body = idBytes(ids, vocab, `cannot write ${path}`);
  writeFileAtomic(path, Buffer.concat([header(vocab, ids.length), body]));
}

/**
 * A token file written piece by piece (the count is not known until the end): the header is
 * written again with the count by `finish`. File-system errors name `what` (the folder being
 * written).
 */
export class TokenFileWriter {
  private fd: number | undefined;
  count = 0;

  constructor(
    readonly path: string,
    readonly vocab: number,
    private readonly what = path,
  ) {
    checkVocab(vocab);
    const fd = this.io(() => openSync(path, 'w'));
    this.fd = fd;
    this.io(() => writeAll(fd, header(vocab, 0), 0));
  }

  private io<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      throw new Error(`cannot write ${this.what}: ${fsReason(e)}`);
    }
  }

  private get open(): number {
    if (this.fd === undefined) throw new Error(`${this.path}: written already`);
    return this.fd;
  }

  append(ids: ArrayLike<number>): void {
    const fd = this.open;
    const bytes = idBytes(ids, this.vocab, this.path);
    this.io(() => writeAll(fd, bytes, HEADER_BYTES + this.count * tokenWidth(this.vocab)));
    this.count += ids.length;
  }

  /** Writes the count into the header and closes the file; returns the count. */
  finish(): number {
    const fd = this.open;
    try {
      this.io(() => writeAll(fd, header(this.vocab, this.count), 0));
    } finally {
      this.close();
    }
    return this.count;
  }

  /** Closes the file (once; after a failure, the file is left as it is). */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * Splits the token file at `path` into consecutive parts of `parts[i].tokens` ids (their sum is
 * the file's count): the first part stays at `path` (which must be `parts[0].path`), cut short,
 * the others are copied out to their paths. Returns each part's count and sha256; file-system
 * errors name `what` (the folder being written).
 */
export function splitTokenFile(
  path: string,
  vocab: number,
  parts: { path: string; tokens: number }[],
  what = path,
): { tokens: number; sha256: string }[] {
  if (parts[0]?.path !== path) throw new Error(`splitTokenFile: the first part stays at ${path}`);
  const width = tokenWidth(vocab);
  const copyPart = (fd: number, from: number, p: { path: string; tokens: number }, i: number) => {
    const head = header(vocab, p.tokens);
    const hash = createHash('sha256').update(head);
    const copy = i === 0 ? undefined : openSync(p.path, 'w');
    try {
      if (copy !== undefined) writeAll(copy, head, 0);
      const buf = Buffer.allocUnsafe(COPY_BYTES);
      const end = from + p.tokens * width;
      for (let at = from; at < end; ) {
        const got = readSync(fd, buf, 0, Math.min(buf.length, end - at), at);
        if (got === 0) throw new Error(`${path}: the file ended at byte ${at} of ${end}`);
        hash.update(buf.subarray(0, got));
        if (copy !== undefined) writeAll(copy, buf.subarray(0, got), HEADER_BYTES + at - from);
        at += got;
      }
    } finally {
      if (copy !== undefined) closeSync(copy);
    }
    return { tokens: p.tokens, sha256: hash.digest('hex') };
  };
  try {
    const fd = openSync(path, 'r+');
    try {
      let from = HEADER_BYTES;
      const out = parts.map((p, i) => {
        const r = copyPart(fd, from, p, i);
        from += p.tokens * width;
        return r;
      });
      ftruncateSync(fd, HEADER_BYTES + parts[0].tokens * width);
      writeAll(fd, header(vocab, parts[0].tokens), 0);
      return out;
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    if (typeof (e as NodeJS.ErrnoException).code !== 'string') throw e;
    throw new Error(`cannot write ${what}: ${fsReason(e)}`);
  }
}

/** Fills `into` from the file's bytes at `at` onwards; returns the count (less where it ends). */
function readFully(fd: number, into: Uint8Array, at: number): number {
  let done = 0;
  while (done < into.length) {
    const got = readSync(fd, into, done, into.length - done, at + done);
    if (got === 0) break;
    done += got;
  }
  return done;
}

/** Reads and checks a token file: its header, its length, and every id against its vocab. */
export function readTokenFile(path: string): TokenFile {
  return withFile(path, (fd) => {
    const size = fstatSync(fd).size;
    const fail = (byte: number | bigint, why: string): never => {
      throw new Error(`${path}: byte ${byte}: ${why}`);
    };
    const h = Buffer.alloc(HEADER_BYTES);
    const got = readFully(fd, h, 0);
    const magic = h.toString('latin1', 0, Math.min(got, 8));
    if (magic !== TOKEN_MAGIC.slice(0, magic.length))
      fail(0, `not a token file (it starts ${JSON.stringify(magic)}, not ${TOKEN_MAGIC})`);
    if (got < HEADER_BYTES) fail(got, `the file ends inside the ${HEADER_BYTES}-byte header`);
    const width = h.readUInt32LE(8);
    if (width !== 2 && width !== 4) fail(8, `id width ${width} (2 or 4 bytes)`);
    const vocab = h.readUInt32LE(12);
    if (vocab === 0) fail(12, 'vocab 0');
    if (width !== tokenWidth(vocab))
      fail(8, `id width ${width}, but vocab ${vocab} takes ${tokenWidth(vocab)}`);
    const count = h.readBigUInt64LE(16);
    const body = size - HEADER_BYTES;
    const held = Math.floor(body / width);
    const spare = body % width;
    if (BigInt(held) !== count || spare !== 0) {
      const at = count * BigInt(width) + BigInt(HEADER_BYTES);
      const extra = spare ? ` and ${spare} byte${spare > 1 ? 's' : ''}` : '';
      fail(
        at < BigInt(size) ? at : size,
        `header says ${count} tokens, body holds ${held}${extra}`,
      );
    }
    let ids: TokenIds;
    try {
      ids = width === 2 ? new Uint16Array(held) : new Uint32Array(held);
    } catch {
      return fail(HEADER_BYTES, `${held} tokens, more than one array holds`);
    }
    const bytes = new Uint8Array(ids.buffer);
    const hash = createHash('sha256').update(h);
    for (let at = 0; at < bytes.length; ) {
      const n = readFully(
        fd,
        bytes.subarray(at, Math.min(at + COPY_BYTES, bytes.length)),
        HEADER_BYTES + at,
      );
      if (n === 0) fail(HEADER_BYTES + at, 'the file ended while it was read');
      hash.update(bytes.subarray(at, at + n));
      at += n;
    }
    littleEndian(bytes, width);
    for (let i = 0; i < ids.length; i++)
      if (ids[i]! >= vocab)
        fail(HEADER_BYTES + i * width, `token ${ids[i]} is not below the vocab ${vocab}`);
    return { ids, vocab, sha256: hash.digest('hex') };
  });
}
