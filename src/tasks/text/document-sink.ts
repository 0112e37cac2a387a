// Where a text source's decoded documents go (source.ts, zip-source.ts): each document's text in
// pieces, then its end; the progress report a read gives; and the sink that joins the documents
// into one stream with a separator between each two.

/** Where a source's decoded text goes: each document's text in pieces, then its end. */
export interface DocumentSink {
  /** called at least once for each document (an empty one: with '') */
  text(t: string): void;
  endDocument(): void;
}

/**
 * A progress report: the bytes of text so far and their total; `verb` says whether they are read
 * from files or expanded from a zip (where the total is the size its directory lists).
 */
export type SourceProgress = (bytes: number, total: number, verb: 'reading' | 'expanding') => void;

/**
 * The documents of a sink, one stream: `separator` between each two (an empty document's too),
 * as `documents.join(separator)`.
 */
export function joinDocuments(separator: string, emit: (text: string) => void): DocumentSink {
  let documents = 0;
  let open = false;
  return {
    text(t) {
      if (!open) {
        if (documents++ > 0) emit(separator);
        open = true;
      }
      if (t !== '') emit(t);
    },
    endDocument() {
      open = false;
    },
  };
}
