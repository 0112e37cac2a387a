// Named tensors to and from safetensors files (the format Python's `safetensors` reads):
// u64 little-endian header length, a JSON header {name: {dtype, shape, data_offsets}},
// then the raw little-endian bytes. Writes are atomic (util/atomic.ts).
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../util/atomic.js';
import { fromBytes } from './factories.js';
import type { DType, Tensor } from './tensor.js';

const CODE: Record<string, string> = {
  float32: 'F32',
  float64: 'F64',
  int64: 'I64',
  int32: 'I32',
  bool: 'BOOL',
  uint8: 'U8',
  float16: 'F16',
  bfloat16: 'BF16',
};
const DTYPE: Record<string, DType> = Object.fromEntries(
  Object.entries(CODE).map(([k, v]) => [v, k as DType]),
);

interface Entry {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

/**
 * Named tensors (with optional string metadata) as the pieces of a safetensors file, in order:
 * the header, then each tensor's bytes (a view of its data where it is contiguous on the CPU).
 * A file is written piece by piece, never joined into one buffer: a paper-size checkpoint is
 * 1.7 GB, and joining it cost a copy of all of it (9 of the 22 s of one checkpoint here).
 */
function safetensorsPieces(
  tensors: Record<string, Tensor>,
  metadata?: Record<string, string>,
): Uint8Array[] {
  const header: Record<string, Entry | Record<string, string>> = {};
  if (metadata) header.__metadata__ = metadata;
  const chunks: Uint8Array[] = [];
  let offset = 0;
  for (const name of Object.keys(tensors).sort()) {
    const t = tensors[name]!;
    const code = CODE[t.dtype];
    if (!code) throw new Error(`safetensors: unsupported dtype ${t.dtype} for '${name}'`);
    const bytes = t.bytes();
    header[name] = {
      dtype: code,
      shape: t.shape,
      data_offsets: [offset, offset + bytes.byteLength],
    };
    chunks.push(bytes);
    offset += bytes.byteLength;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (Buffer.byteLength(json) % 8)) % 8);
  const head = Buffer.alloc(8);
  head.writeBigUInt64LE(BigInt(Buffer.byteLength(json)));
  return [head, Buffer.from(json), ...chunks];
}

/** Encodes named tensors (with optional string metadata) as safetensors bytes. */
export function encodeSafetensors(
  tensors: Record<string, Tensor>,
  metadata?: Record<string, string>,
): Buffer {
  return Buffer.concat(safetensorsPieces(tensors, metadata));
}

/** Writes named tensors atomically (temporary file, then rename). */
export function saveSafetensors(
  path: string,
  tensors: Record<string, Tensor>,
  metadata?: Record<string, string>,
): void {
  writeFileAtomic(path, safetensorsPieces(tensors, metadata));
}

/** Decodes safetensors bytes; throws a one-line error naming what is wrong. */
export function decodeSafetensors(
  buf: Uint8Array,
  source = 'safetensors',
): {
  tensors: Record<string, Tensor>;
  metadata: Record<string, string>;
} {
  if (buf.byteLength < 8) throw new Error(`${source}: file too short for a safetensors header`);
  // printed as the integer it is, however large
  const length = new DataView(buf.buffer, buf.byteOffset, buf.byteLength).getBigUint64(0, true);
  if (length > BigInt(buf.byteLength - 8))
    throw new Error(
      `${source}: header length ${length} exceeds the file (${buf.byteLength - 8} bytes after it)`,
    );
  const n = Number(length);
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(new TextDecoder().decode(buf.subarray(8, 8 + n)));
  } catch {
    throw new Error(`${source}: header is not valid JSON`);
  }
  const data = buf.subarray(8 + n);
  const tensors: Record<string, Tensor> = {};
  let metadata: Record<string, string> = {};
  for (const [name, v] of Object.entries(header)) {
    if (name === '__metadata__') {
      metadata = v as Record<string, string>;
      continue;
    }
    const e = v as Entry;
    const dtype = DTYPE[e.dtype];
    if (!dtype) throw new Error(`${source}: tensor '${name}' has unsupported dtype ${e.dtype}`);
    const [a, b] = e.data_offsets;
    if (!(a >= 0 && b >= a && b <= data.byteLength))
      throw new Error(`${source}: tensor '${name}' lies outside the file`);
    try {
      tensors[name] = fromBytes(
        new Uint8Array(data.buffer, data.byteOffset + a, b - a),
        dtype,
        e.shape,
      );
    } catch (err) {
      // e.g. offsets that disagree with the shape: say which file and tensor
      throw new Error(`${source}: tensor '${name}': ${(err as Error).message.split('\n')[0]}`);
    }
  }
  return { tensors, metadata };
}

export function loadSafetensors(path: string): {
  tensors: Record<string, Tensor>;
  metadata: Record<string, string>;
} {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (e) {
    // Node's EISDIR and EACCES messages name no file
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'EISDIR'
        ? 'is a folder, not a safetensors file'
        : code === 'ENOENT'
          ? 'no such file'
          : (e as Error).message;
    throw new Error(`${path}: ${why}`);
  }
  return decodeSafetensors(buf, path);
}
