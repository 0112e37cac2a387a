// A zip file's central directory (APPNOTE 4.3.12-4.3.16, zip64 included): each entry's name and
// its compressed and expanded sizes, read before anything is inflated, so that an archive that
// would expand past its bound (a zip bomb) is refused in one line, and expansion can show
// progress against the size it will reach.
import { readSync, statSync } from 'node:fs';
import { withFile } from './file-chunks.js';

/** An archive may expand to this many times its own size... */
export const MAX_EXPANSION = 100;
/** ...or to this many bytes, whichever is larger (a small zip of repetitive text is no bomb). */
export const EXPANSION_FLOOR = 64 * 2 ** 20;

export interface ZipEntry {
  /** as fflate's Unzip names it: UTF-8 where the entry's flag says so, else Latin-1 */
  name: string;
  compressed: number;
  /** the expanded size the directory lists */
  size: number;
}

const EOCD = 'PK\x05\x06';
const ZIP64_LOCATOR = 'PK\x06\x07';
const ZIP64_EOCD = 'PK\x06\x06';
const CENTRAL = 'PK\x01\x02';
const MAX32 = 0xffffffff;

/** The error for a zip sjd cannot read, naming it and why. */
export const unreadableZip = (path: string, why: string) =>
  new Error(`${path}: not a readable zip file (${why})`);

/** Reads `n` bytes at `at` (fewer only where the file ends). */
function readAt(fd: number, at: number, n: number): Buffer {
  const b = Buffer.alloc(n);
  let done = 0;
  while (done < n) {
    const k = readSync(fd, b, done, n - done, at + done);
    if (k === 0) break;
    done += k;
  }
  return b.subarray(0, done);
}

/** The entries' count, and the central directory's size and offset, from the end records. */
function directoryPlace(fd: number, size: number, fail: (why: string) => never) {
  const n = Math.min(size, 22 + 0xffff); // the record and its longest comment
  const tail = readAt(fd, size - n, n);
  const at = tail.lastIndexOf(EOCD, n - 22, 'latin1');
  if (at < 0) fail('no end-of-central-directory record: is it cut short?');
  let entries = tail.readUInt16LE(at + 10);
  let length = tail.readUInt32LE(at + 12);
  let offset = tail.readUInt32LE(at + 16);
  const z64 = at >= 20 ? at - 20 : -1;
  if (z64 >= 0 && tail.toString('latin1', z64, z64 + 4) === ZIP64_LOCATOR) {
    const rec = readAt(fd, Number(tail.readBigUInt64LE(z64 + 8)), 56);
    if (rec.length < 56 || rec.toString('latin1', 0, 4) !== ZIP64_EOCD)
      fail('a zip64 locator without its record');
    entries = Number(rec.readBigUInt64LE(32));
    length = Number(rec.readBigUInt64LE(40));
    offset = Number(rec.readBigUInt64LE(48));
  }
  if (offset + length > size) fail('its central directory lies past its end');
  return { entries, length, offset };
}

/** The zip64 extended-information field's sizes, for those the header marks 0xffffffff. */
function zip64Sizes(extra: Buffer, size: number, compressed: number) {
  for (let i = 0; i + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(i);
    const len = extra.readUInt16LE(i + 2);
    if (id === 0x0001) {
      let p = i + 4;
      const next = () => {
        const v = p + 8 <= i + 4 + len ? Number(extra.readBigUInt64LE(p)) : Number.NaN;
        p += 8;
        return v;
      };
      if (size === MAX32) size = next();
      if (compressed === MAX32) compressed = next();
      break;
    }
    i += 4 + len;
  }
  return { size, compressed };
}

/**
 * The central directory of the zip at `path`, every entry in the order it lists them; a file that
 * is not a zip, or whose directory is cut short or malformed, is refused naming `path`.
 */
export function readZipDirectory(path: string): ZipEntry[] {
  const fail = (why: string): never => {
    throw unreadableZip(path, why);
  };
  return withFile(path, (fd) => {
    const size = statSync(path).size;
    const sig = readAt(fd, 0, 4).toString('latin1');
    if (sig !== 'PK\x03\x04' && sig !== EOCD) fail('no zip signature');
    const place = directoryPlace(fd, size, fail);
    const dir = readAt(fd, place.offset, place.length);
    const entries: ZipEntry[] = [];
    for (let p = 0; entries.length < place.entries; ) {
      if (p + 46 > dir.length || dir.toString('latin1', p, p + 4) !== CENTRAL)
        fail(`its directory lists ${place.entries} entries, ${entries.length} found`);
      const utf8 = (dir.readUInt16LE(p + 8) & 0x800) !== 0;
      const nameLength = dir.readUInt16LE(p + 28);
      const extraLength = dir.readUInt16LE(p + 30);
      const start = p + 46;
      const name = dir.toString(utf8 ? 'utf8' : 'latin1', start, start + nameLength);
      const extra = dir.subarray(start + nameLength, start + nameLength + extraLength);
      const sizes = zip64Sizes(extra, dir.readUInt32LE(p + 24), dir.readUInt32LE(p + 20));
      if (!Number.isFinite(sizes.size) || !Number.isFinite(sizes.compressed))
        fail(`entry ${JSON.stringify(name)} has no zip64 sizes`);
      entries.push({ name, ...sizes });
      p = start + nameLength + extraLength + dir.readUInt16LE(p + 32);
    }
    return entries;
  });
}

/** The bytes an archive of `zipBytes` may expand to (MAX_EXPANSION, EXPANSION_FLOOR). */
export const expansionBound = (zipBytes: number) =>
  Math.max(MAX_EXPANSION * zipBytes, EXPANSION_FLOOR);
