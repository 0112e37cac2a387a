// The entries of a zip file read in name order (text8.zip), streamed through fflate's Unzip so
// that no entry is held whole: each entry is a document, decoded as UTF-8 chunk by chunk.
import { statSync } from 'node:fs';
import { Unzip, type UnzipDecoder, UnzipInflate, UnzipPassThrough } from 'fflate';
import type { DocumentSink, SourceProgress } from './document-sink.js';
import { readChunks } from './file-chunks.js';
import { Utf8Document } from './utf8-document.js';
import {
  EXPANSION_FLOOR,
  expansionBound,
  MAX_EXPANSION,
  readZipDirectory,
  unreadableZip,
} from './zip-directory.js';

/**
 * Runs the zip's bytes through fflate's streaming Unzip; entries for which `wanted` is false are
 * skipped without being inflated, the others' bytes go to `onEntry` as they are inflated.
 */
function unzipPass(
  path: string,
  chunkBytes: number,
  wanted: (name: string) => boolean,
  onEntry: (name: string, data: Uint8Array, final: boolean) => void,
): void {
  const fail = (why: string): never => {
    throw unreadableZip(path, why);
  };
  const unzip = new Unzip((file) => {
    file.ondata = (err, data, final) => {
      if (err) {
        if (typeof (err as { code?: unknown }).code === 'number') fail(err.message);
        throw err; // thrown by onEntry (the bound, the normaliser), passed back by fflate
      }
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
  readChunks(path, chunkBytes, (bytes) => push(bytes, false), true);
  push(new Uint8Array(0), true);
}

/** Bytes as whole MiB (at least 1) for a message. */
const mib = (bytes: number) =>
  `${Math.max(1, Math.round(bytes / 2 ** 20)).toLocaleString('en-US')} MiB`;

/**
 * The zip's entries in the order its local headers come (a pass, nothing inflated), each with the
 * expanded size its central directory lists; an archive that would expand past its bound
 * (zip-directory.ts) is refused before anything is inflated.
 */
function listEntries(zip: string, chunk: number): { names: string[]; sizes: Map<string, number> } {
  const fail = (why: string): never => {
    throw unreadableZip(zip, why);
  };
  const listed = readZipDirectory(zip);
  const sizes = new Map<string, number>();
  for (const e of listed) sizes.set(e.name, (sizes.get(e.name) ?? 0) + e.size);
  const names: string[] = [];
  unzipPass(
    zip,
    chunk,
    () => false,
    (name, _d, final) => {
      if (!final) return;
      if (!sizes.has(name)) fail(`entry ${JSON.stringify(name)} is not in its directory`);
      names.push(name);
    },
  );
  if (names.length !== listed.length)
    fail(`its directory lists ${listed.length} entries, ${names.length} found`);
  const zipBytes = statSync(zip).size;
  const expanded = listed.reduce((a, e) => a + e.size, 0);
  if (expanded > expansionBound(zipBytes))
    throw new Error(
      `${zip}: expands to ${mib(expanded)}, more than ${MAX_EXPANSION} times its ${mib(zipBytes)} (a zip bomb?); sjd expands a zip to at most ${MAX_EXPANSION} times its size or ${mib(EXPANSION_FLOOR)}: unzip it yourself to use it`,
    );
  return { names, sizes };
}

/**
 * Decodes every entry of `zip` in name order into `sink`; `progress` is told the bytes expanded so
 * far and the total the directory lists.
 */
export function decodeZip(
  zip: string,
  chunk: number,
  sink: DocumentSink,
  progress?: SourceProgress,
): void {
  // List the entries (nothing inflated), then read them in name order.
  const listed = listEntries(zip, chunk);
  const names = listed.names.filter((name) => !name.endsWith('/'));
  if (names.length === 0) throw new Error(`${zip}: the zip file is empty`);
  const bound = listed.sizes; // what each name may still expand to
  const sorted = [...names].sort();
  const inOrder = sorted.every((s, i) => s === names[i]);
  // In name order already (text8.zip): one pass. Otherwise one pass per entry.
  const passes = inOrder ? [sorted] : sorted.map((s) => [s]);
  let total = 0;
  for (const name of new Set(names)) total += bound.get(name)!;
  let expanded = 0;
  for (const group of passes) {
    const want = new Set(group);
    let dec: Utf8Document | null = null;
    unzipPass(
      zip,
      chunk,
      (name) => want.has(name),
      (name, data, final) => {
        if (!want.has(name)) return;
        const left = bound.get(name)! - data.length;
        if (left < 0)
          throw unreadableZip(
            zip,
            `entry ${JSON.stringify(name)} expands past the size its directory lists`,
          );
        bound.set(name, left);
        expanded += data.length;
        progress?.(expanded, total, 'expanding');
        dec ??= new Utf8Document(`${zip}: ${name}`);
        sink.text(dec.write(Buffer.from(data.buffer, data.byteOffset, data.length)));
        if (final) {
          sink.text(dec.end());
          sink.endDocument();
          dec = null;
        }
      },
    );
  }
}
