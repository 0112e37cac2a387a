// The entries of a zip file read in name order (text8.zip), streamed through fflate's Unzip so
// that no entry is held whole: each entry is a document, decoded as UTF-8 chunk by chunk.
import { readSync, statSync } from 'node:fs';
import { Unzip, type UnzipDecoder, UnzipInflate, UnzipPassThrough } from 'fflate';
import { readChunks, withFile } from './file-chunks.js';
import type { DocumentSink } from './source.js';
import { Utf8Document } from './utf8-document.js';

/**
 * Runs the zip's bytes through fflate's streaming Unzip; entries for which `wanted` is false are
 * skipped without being inflated, the others' bytes go to `onEntry` as they are inflated.
 */
function unzipPass(
  path: string,
  chunkBytes: number,
  wanted: (name: string) => boolean,
  onEntry: (name: string, data: Uint8Array, final: boolean) => void,
  onRead: (bytes: number) => void = () => {},
): void {
  const fail = (why: string): never => {
    throw new Error(`${path}: not a readable zip file (${why})`);
  };
  const unzip = new Unzip((file) => {
    file.ondata = (err, data, final) => {
      if (err) fail(err.message);
      onEntry(file.name, data, final);
    };
    file.start();
  });
  for (const Real of [UnzipPassThrough, UnzipInflate]) {
    // A decoder that inflates only the wanted entries (the others' bytes are dropped).
    class Filter implements UnzipDecoder {
      static compression = Real.compression;
      ondata: UnzipDecoder['ondata'] = () => {};
      private readonly real?: UnzipDecoder;
      constructor(name: string) {
        if (!wanted(name)) return;
        this.real = new Real();
        this.real.ondata = (e, d, f) => this.ondata(e, d, f);
      }
      push(chunk: Uint8Array, final: boolean): void {
        if (this.real) this.real.push(chunk, final);
        else if (final) this.ondata(null, new Uint8Array(0), true);
      }
    }
    unzip.register(Filter);
  }
  // fflate's own errors carry a numeric code; the normaliser's and the writer's pass through.
  const push = (bytes: Uint8Array, final: boolean) => {
    try {
      unzip.push(bytes, final);
    } catch (e) {
      if (typeof (e as { code?: unknown }).code === 'number') fail((e as Error).message);
      throw e;
    }
  };
  readChunks(
    path,
    chunkBytes,
    (bytes) => {
      push(bytes, false);
      onRead(bytes.length);
    },
    true,
  );
  push(new Uint8Array(0), true);
}

/**
 * A zip file starts with a local file header (or is an empty archive) and ends with its
 * end-of-central-directory record; returns the number of entries that record lists (0xffff:
 * look in the zip64 record, not read here).
 */
function zipDirectoryCount(path: string): number {
  const fail = (why: string): never => {
    throw new Error(`${path}: not a readable zip file (${why})`);
  };
  return withFile(path, (fd) => {
    const size = statSync(path).size;
    const head = Buffer.alloc(4);
    readSync(fd, head, 0, 4, 0);
    const sig = head.toString('latin1');
    if (sig !== 'PK\x03\x04' && sig !== 'PK\x05\x06') fail('no zip signature');
    const n = Math.min(size, 22 + 0xffff); // the record and its longest comment
    const tail = Buffer.alloc(n);
    readSync(fd, tail, 0, n, size - n);
    const eocd = tail.lastIndexOf('PK\x05\x06', n - 22, 'latin1');
    if (eocd < 0) fail('no end-of-central-directory record: is it cut short?');
    return tail.readUInt16LE(eocd + 10);
  });
}

/**
 * Decodes every entry of `zip` in name order into `sink`; `progress` is told the bytes read so
 * far and the total (the zip's size once a pass).
 */
export function decodeZip(
  zip: string,
  chunk: number,
  sink: DocumentSink,
  progress?: (read: number, total: number) => void,
): void {
  // List the entries (nothing inflated), then read them in name order.
  const listed = zipDirectoryCount(zip);
  const names: string[] = [];
  let entries = 0;
  unzipPass(
    zip,
    chunk,
    () => false,
    (name, _d, final) => {
      if (!final) return;
      entries++;
      if (!name.endsWith('/')) names.push(name);
    },
  );
  if (listed !== 0xffff && entries !== listed)
    throw new Error(
      `${zip}: not a readable zip file (its directory lists ${listed} entries, ${entries} found)`,
    );
  if (names.length === 0) throw new Error(`${zip}: the zip file is empty`);
  const sorted = [...names].sort();
  const inOrder = sorted.every((s, i) => s === names[i]);
  // In name order already (text8.zip): one pass. Otherwise one pass per entry.
  const passes = inOrder ? [sorted] : sorted.map((s) => [s]);
  const total = passes.length * statSync(zip).size;
  let read = 0;
  const onRead = (bytes: number) => {
    read += bytes;
    progress?.(read, total);
  };
  for (const group of passes) {
    const want = new Set(group);
    let dec: Utf8Document | null = null;
    unzipPass(
      zip,
      chunk,
      (name) => want.has(name),
      (name, data, final) => {
        if (!want.has(name)) return;
        dec ??= new Utf8Document(`${zip}: ${name}`);
        sink.text(dec.write(Buffer.from(data.buffer, data.byteOffset, data.length)));
        if (final) {
          sink.text(dec.end());
          sink.endDocument();
          dec = null;
        }
      },
      onRead,
    );
  }
}
