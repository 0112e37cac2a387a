// The idx file format of (Fashion-)MNIST, the grey-level image source of the image task (the
// paper's image experiments, app:cifar10-imagenet, take images as uint8 tokens): two
// zero bytes, a type byte, a dimension count, one big-endian uint32 size per dimension, then the
// row-major data. Only byte arrays are read (0x08 unsigned, 0x09 signed); files may be gzipped.
// Errors are one line naming the file and the problem.
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'fflate';
import { fsReason } from '../../util/atomic.js';

/** The idx element types this reader accepts, by type byte. */
const BYTE_TYPES = { 8: 'ubyte', 9: 'byte' } as const;
/** The idx types it refuses, named for the message. */
const OTHER_TYPES: Record<number, string> = {
  11: 'int16',
  12: 'int32',
  13: 'float32',
  14: 'float64',
};

export interface IdxArray {
  type: 'ubyte' | 'byte'; // 0x08 or 0x09; view `data` as an Int8Array for 'byte'
  dims: number[]; // e.g. [N, 28, 28] for images, [N] for labels
  data: Uint8Array; // [prod(dims)] raw bytes, row-major
}

const hex = (b: number) => `0x${b.toString(16).padStart(2, '0')}`;

/** Parses the bytes of an (uncompressed) idx file; `name` names the file in errors. */
export function parseIdx(bytes: Uint8Array, name: string): IdxArray {
  if (bytes.length < 4) throw new Error(`${name}: truncated idx header (${bytes.length} bytes)`);
  if (bytes[0] !== 0 || bytes[1] !== 0)
    throw new Error(
      `${name}: not an idx file (bad magic ${[...bytes.subarray(0, 4)].map(hex).join(' ')})`,
    );
  const code = bytes[2]!;
  const type = BYTE_TYPES[code as keyof typeof BYTE_TYPES];
  if (type === undefined)
    throw new Error(
      `${name}: unsupported idx type ${hex(code)}${code in OTHER_TYPES ? ` (${OTHER_TYPES[code]})` : ''}; only 0x08 and 0x09 (bytes) are read`,
    );
  const rank = bytes[3]!;
  if (rank === 0) throw new Error(`${name}: idx array with no dimensions`);
  const start = 4 + 4 * rank;
  if (bytes.length < start)
    throw new Error(
      `${name}: truncated idx header: ${rank} dimensions need ${start} bytes, the file has ${bytes.length}`,
    );
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dims = Array.from({ length: rank }, (_, k) => view.getUint32(4 + 4 * k, false));
  const size = dims.reduce((a, b) => a * b, 1);
  const have = bytes.length - start;
  const shape = dims.join('x');
  if (have < size)
    throw new Error(
      `${name}: truncated data: a ${shape} array needs ${size} bytes, the file has ${have}`,
    );
  if (have > size)
    throw new Error(`${name}: ${have - size} trailing bytes after the ${shape} array`);
  return { type, dims, data: bytes.subarray(start) };
}

/** Reads an idx file, gunzipping it first when it is gzip (by its 1f 8b magic, not its name). */
export function readIdx(path: string): IdxArray {
  if (!existsSync(path)) throw new Error(`${path}: no such file`);
  let bytes: Uint8Array;
  try {
    const buf = readFileSync(path);
    bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength); // a plain view, not a Buffer
  } catch (e) {
    throw new Error(`cannot read ${path}: ${fsReason(e)}`);
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch (e) {
      throw new Error(`${path}: bad gzip data (${e instanceof Error ? e.message : String(e)})`);
    }
  }
  return parseIdx(bytes, path);
}
