// A file read in chunks of bytes, for sources of any size (source.ts, zip-source.ts); a failure
// to open or read it is one line naming the file.
import { closeSync, openSync, readSync } from 'node:fs';
import { fsReason } from '../../util/atomic.js';

/** Runs `f` on the file opened for reading; a failure names the file. */
export function withFile<T>(path: string, f: (fd: number) => T): T {
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
export function readChunks(
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
