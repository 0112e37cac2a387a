// The Shah et al. (2024) Sudoku .npy files the SJD paper trains on: a NumPy array of shape
// (N, 325), one record per puzzle: the number of givens g, then 81 quadruples (row, column,
// value, strategy), rows and columns 0-based, the g clue cells first. The puzzle is the first g
// cells, the solution all 81 (strategy ids are ignored). The .npy container (magic \x93NUMPY,
// versions 1.0-3.0, a Python-dict header: descr, fortran_order, shape) is parsed by hand.
// Integer dtypes of 1-8 bytes and float32/64 holding integers, either byte order. Errors are one
// line naming the file and, for bad content, the record (0-based, as NumPy indexes it).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { CELLS } from './board.js';
import { pairProblem, type SudokuSet } from './check.js';

const RECORD = 1 + 4 * CELLS; // 325 numbers per puzzle
const MAGIC = '\x93NUMPY';
const CHUNK = 4096; // records read per file access

interface DType {
  size: number; // bytes per number
  read: (view: DataView, offset: number) => number;
}

interface NpyHeader {
  dtype: DType;
  rows: number;
  dataOffset: number; // byte offset of the array data
}

/** A reader for a NumPy descr such as '<i8', '|u1', '>f4'; null when unsupported. */
function dtypeOf(descr: string): DType | null {
  const m = /^([<>|=])([iuf])([1248])$/.exec(descr);
  if (!m) return null;
  const le = m[1] !== '>';
  const kind = m[2]! + m[3]!;
  const hi = le ? 4 : 0; // byte offset of the high word of a 64-bit integer
  const readers: Record<string, DType['read']> = {
    i1: (v, o) => v.getInt8(o),
    u1: (v, o) => v.getUint8(o),
    i2: (v, o) => v.getInt16(o, le),
    u2: (v, o) => v.getUint16(o, le),
    i4: (v, o) => v.getInt32(o, le),
    u4: (v, o) => v.getUint32(o, le),
    i8: (v, o) => v.getInt32(o + hi, le) * 2 ** 32 + v.getUint32(o + 4 - hi, le),
    u8: (v, o) => v.getUint32(o + hi, le) * 2 ** 32 + v.getUint32(o + 4 - hi, le),
    f4: (v, o) => v.getFloat32(o, le),
    f8: (v, o) => v.getFloat64(o, le),
  };
  return kind in readers ? { size: Number(m[3]), read: readers[kind]! } : null;
}

/** Bytes before the header dict: magic, version, header length. */
function headerLength(buf: Uint8Array, source: string): { start: number; length: number } {
  if (buf.length < 10 || Buffer.from(buf.subarray(0, 6)).toString('latin1') !== MAGIC)
    throw new Error(`${source}: not a .npy file (no \\x93NUMPY magic)`);
  const major = buf[6]!;
  if (major < 1 || major > 3)
    throw new Error(`${source}: unsupported .npy version ${major}.${buf[7]}`);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (major === 1) return { start: 10, length: view.getUint16(8, true) };
  if (buf.length < 12) throw new Error(`${source}: truncated .npy header`);
  return { start: 12, length: view.getUint32(8, true) };
}

/** Parses the header from the file's first bytes (at least up to the end of the dict). */
function parseHeader(buf: Uint8Array, source: string): NpyHeader {
  const { start, length } = headerLength(buf, source);
  if (buf.length < start + length) throw new Error(`${source}: truncated .npy header`);
  const dict = Buffer.from(buf.subarray(start, start + length)).toString(
    buf[6] === 3 ? 'utf8' : 'latin1',
  );
  const descr = /'descr':\s*'([^']*)'/.exec(dict)?.[1];
  const fortran = /'fortran_order':\s*(True|False)/.exec(dict)?.[1];
  const shape = /'shape':\s*\(([^)]*)\)/.exec(dict)?.[1];
  if (descr === undefined || fortran === undefined || shape === undefined)
    throw new Error(`${source}: malformed .npy header ${JSON.stringify(dict.trim())}`);
  const dtype = dtypeOf(descr);
  if (!dtype)
    throw new Error(`${source}: unsupported dtype '${descr}' (integers or floats expected)`);
  if (fortran === 'True') throw new Error(`${source}: fortran_order arrays are not supported`);
  const dims = shape
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d !== '')
    .map(Number);
  if (dims.length !== 2 || dims[1] !== RECORD || !Number.isInteger(dims[0]))
    throw new Error(`${source}: shape (${shape.trim()}) is not (N, ${RECORD})`);
  return { dtype, rows: dims[0]!, dataOffset: start + length };
}

/**
 * Decodes `count` records from `view` (at byte 0) into `out`; `first` is the index of the first
 * record, for messages.
 */
function decodeRecords(
  view: DataView,
  count: number,
  first: number,
  { size, read }: DType,
  source: string,
  out: SudokuSet,
): void {
  const cells = new Uint8Array(2 * CELLS * count); // puzzles and solutions, one allocation
  for (let k = 0; k < count; k++) {
    const fail = (problem: string): never => {
      throw new Error(`${source} record ${first + k}: ${problem}`);
    };
    const base = k * RECORD * size;
    const at = (j: number): number => {
      const v = read(view, base + j * size);
      return Number.isInteger(v) ? v : fail(`value ${v} at column ${j} is not an integer`);
    };
    const g = at(0);
    if (g < 0 || g > CELLS) fail(`${g} givens, expected 0..${CELLS}`);
    const puzzle = cells.subarray(2 * CELLS * k, 2 * CELLS * k + CELLS);
    const solution = cells.subarray(2 * CELLS * k + CELLS, 2 * CELLS * (k + 1));
    for (let q = 0; q < CELLS; q++) {
      const r = at(1 + 4 * q);
      const c = at(2 + 4 * q);
      const v = at(3 + 4 * q);
      if (r < 0 || r > 8) fail(`quadruple ${q} has row ${r}, expected 0..8`);
      if (c < 0 || c > 8) fail(`quadruple ${q} has column ${c}, expected 0..8`);
      if (v < 1 || v > 9) fail(`quadruple ${q} has value ${v}, expected 1..9`);
      const i = 9 * r + c;
      if (solution[i]) fail(`quadruple ${q} repeats cell (${r}, ${c})`);
      solution[i] = v;
      if (q < g) puzzle[i] = v;
    }
    const problem = pairProblem(puzzle, solution);
    if (problem) fail(problem);
    out.puzzles.push(puzzle);
    out.solutions.push(solution);
  }
}

const viewOf = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

const truncated = (source: string, want: number, have: number) =>
  new Error(`${source}: truncated: the shape needs ${want} bytes of data, the file has ${have}`);

/** Parses a whole .npy file held in memory. */
export function parseSudokuNpy(buf: Uint8Array, source: string): SudokuSet {
  const h = parseHeader(buf, source);
  const want = h.rows * RECORD * h.dtype.size;
  const data = buf.subarray(h.dataOffset);
  if (data.length < want) throw truncated(source, want, data.length);
  const out: SudokuSet = { puzzles: [], solutions: [] };
  decodeRecords(viewOf(data), h.rows, 0, h.dtype, source, out);
  return out;
}

/** Reads the first `limit` records (all by default) of a .npy file, in chunks. */
export function readSudokuNpy(path: string, opts: { limit?: number } = {}): SudokuSet {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const prefix = new Uint8Array(12);
    const { start, length } = headerLength(
      prefix.subarray(0, readSync(fd, prefix, 0, 12, 0)),
      path,
    );
    const head = new Uint8Array(start + length);
    const h = parseHeader(head.subarray(0, readSync(fd, head, 0, head.length, 0)), path);
    const recordBytes = RECORD * h.dtype.size;
    const want = h.rows * recordBytes;
    if (size - h.dataOffset < want) throw truncated(path, want, size - h.dataOffset);
    const n = Math.min(h.rows, opts.limit ?? h.rows);
    const out: SudokuSet = { puzzles: [], solutions: [] };
    const chunk = new Uint8Array(Math.min(n, CHUNK) * recordBytes);
    for (let k = 0; k < n; k += CHUNK) {
      const count = Math.min(CHUNK, n - k);
      readSync(fd, chunk, 0, count * recordBytes, h.dataOffset + k * recordBytes);
      decodeRecords(viewOf(chunk), count, k, h.dtype, path, out);
    }
    return out;
  } finally {
    closeSync(fd);
  }
}
