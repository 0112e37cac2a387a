// The Tensor class: an owned libtorch tensor handle with PyTorch-named methods, each one call
// into the addon (DESIGN.md §3). Numbers next to tensors follow PyTorch's scalar promotion.
// Every new Tensor joins the innermost `tidy` scope; `dispose()` frees it at once.
import { inspect } from 'node:util';
import { type BinaryOp, type Handle, type HandleOrScalar, native, type UnaryOp } from './native.js';
import { type Disposable, track } from './scope.js';
import type { DType, TypedArray } from './types.js';

export type { DType, Reduction, TypedArray } from './types.js';
/** A tensor or a JavaScript scalar operand. */
export type Operand = Tensor | number | boolean;

const h = (x: Operand): HandleOrScalar => (x instanceof Tensor ? x.handle : x);

export class Tensor implements Disposable {
  #handle: Handle;

  constructor(handle: Handle) {
    this.#handle = handle;
    track(this);
  }

  /** The native handle (throws if disposed). */
  get handle(): Handle {
    return this.#handle;
  }

  // ---- metadata ----
  get shape(): number[] {
    return native.shape(this.#handle);
  }
  get dtype(): DType {
    return native.dtype(this.#handle);
  }
  get device(): string {
    return native.device(this.#handle);
  }
  get ndim(): number {
    return this.shape.length;
  }
  get numel(): number {
    return this.shape.reduce((a, b) => a * b, 1);
  }
  size(dim: number): number {
    const s = this.shape;
    return s[dim < 0 ? s.length + dim : dim]!;
  }
  get isDisposed(): boolean {
    return native.isDisposed(this.#handle);
  }
  dispose(): void {
    native.dispose(this.#handle);
  }

  // ---- data out ----
  /** A copy of the elements (row-major) as a typed array. */
  data(): TypedArray {
    return native.toTyped(this.#handle).slice();
  }
  /** A zero-copy typed-array view of a contiguous CPU tensor (copied first otherwise); it aliases the tensor. */
  dataView(): TypedArray {
    return native.toTyped(this.#handle);
  }
  /** The elements as plain numbers (int64 converted with Number). */
  toArray(): number[] {
    const d = native.toTyped(this.#handle);
    return Array.from(d as ArrayLike<number | bigint>, (v) => Number(v));
  }
  /** Raw little-endian bytes (zero-copy view when contiguous on CPU). */
  bytes(): Uint8Array {
    return native.bytes(this.#handle);
  }
  /** The value of a one-element tensor. */
  item(): number {
    return Number(native.item(this.#handle));
  }
  toString(): string {
    return native.format(this.#handle);
  }
  [inspect.custom](): string {
    return `Tensor(${this.dtype}, [${this.shape.join(', ')}], ${this.device})\n${this.toString()}`;
  }

  // ---- conversion ----
  to(dtype?: DType, device?: string): Tensor {
    return new Tensor(native.to(this.#handle, dtype, device));
  }
  float(): Tensor {
    return this.to('float32');
  }
  double(): Tensor {
    return this.to('float64');
  }
  long(): Tensor {
    return this.to('int64');
  }
  contiguous(): Tensor {
    return new Tensor(native.contiguous(this.#handle));
  }
  clone(): Tensor {
    return new Tensor(native.clone(this.#handle));
  }
  detach(): Tensor {
    return new Tensor(native.detach(this.#handle));
  }

  // ---- autograd ----
  get requiresGrad(): boolean {
    return native.info(this.#handle).requiresGrad;
  }
  requiresGrad_(on = true): this {
    native.setRequiresGrad(this.#handle, on);
    return this;
  }
  /** The accumulated gradient, or null. */
  get grad(): Tensor | null {
    const g = native.grad(this.#handle);
    return g === null ? null : new Tensor(g);
  }
  clearGrad(): void {
    native.clearGrad(this.#handle);
  }
  backward(grad?: Tensor, retainGraph = false): void {
    native.backward(this.#handle, grad?.handle, retainGraph);
  }

  // ---- elementwise ----
  #u(name: UnaryOp): Tensor {
    return new Tensor(native[name](this.#handle));
  }
  #b(name: BinaryOp, other: Operand): Tensor {
    return new Tensor(native[name](this.#handle, h(other)));
  }
  neg(): Tensor {
    return this.#u('neg');
  }
  abs(): Tensor {
    return this.#u('abs');
  }
  exp(): Tensor {
    return this.#u('exp');
  }
  log(): Tensor {
    return this.#u('log');
  }
  log1p(): Tensor {
    return this.#u('log1p');
  }
  expm1(): Tensor {
    return this.#u('expm1');
  }
  log2(): Tensor {
    return this.#u('log2');
  }
  sqrt(): Tensor {
    return this.#u('sqrt');
  }
  rsqrt(): Tensor {
    return this.#u('rsqrt');
  }
  square(): Tensor {
    return this.#u('square');
  }
  reciprocal(): Tensor {
    return this.#u('reciprocal');
  }
  tanh(): Tensor {
    return this.#u('tanh');
  }
  sigmoid(): Tensor {
    return this.#u('sigmoid');
  }
  erf(): Tensor {
    return this.#u('erf');
  }
  erfinv(): Tensor {
    return this.#u('erfinv');
  }
  relu(): Tensor {
    return this.#u('relu');
  }
  silu(): Tensor {
    return this.#u('silu');
  }
  sin(): Tensor {
    return this.#u('sin');
  }
  cos(): Tensor {
    return this.#u('cos');
  }
  floor(): Tensor {
    return this.#u('floor');
  }
  ceil(): Tensor {
    return this.#u('ceil');
  }
  round(): Tensor {
    return this.#u('round');
  }
  sign(): Tensor {
    return this.#u('sign');
  }
  lgamma(): Tensor {
    return this.#u('lgamma');
  }
  logicalNot(): Tensor {
    return this.#u('logical_not');
  }
  isnan(): Tensor {
    return this.#u('isnan');
  }
  isinf(): Tensor {
    return this.#u('isinf');
  }
  isfinite(): Tensor {
    return this.#u('isfinite');
  }
  gelu(approximate: 'none' | 'tanh' = 'none'): Tensor {
    return new Tensor(native.gelu(this.#handle, approximate));
  }
  add(o: Operand): Tensor {
    return this.#b('add', o);
  }
  sub(o: Operand): Tensor {
    return this.#b('sub', o);
  }
  mul(o: Operand): Tensor {
    return this.#b('mul', o);
  }
  div(o: Operand): Tensor {
    return this.#b('div', o);
  }
  pow(o: Operand): Tensor {
    return this.#b('pow', o);
  }
  maximum(o: Operand): Tensor {
    return this.#b('maximum', o);
  }
  minimum(o: Operand): Tensor {
    return this.#b('minimum', o);
  }
  remainder(o: Operand): Tensor {
    return this.#b('remainder', o);
  }
  floorDivide(o: Operand): Tensor {
    return this.#b('floor_divide', o);
  }
  xlogy(o: Operand): Tensor {
    return this.#b('xlogy', o);
  }
  atan2(o: Operand): Tensor {
    return this.#b('atan2', o);
  }
  eq(o: Operand): Tensor {
    return this.#b('eq', o);
  }
  ne(o: Operand): Tensor {
    return this.#b('ne', o);
  }
  lt(o: Operand): Tensor {
    return this.#b('lt', o);
  }
  le(o: Operand): Tensor {
    return this.#b('le', o);
  }
  gt(o: Operand): Tensor {
    return this.#b('gt', o);
  }
  ge(o: Operand): Tensor {
    return this.#b('ge', o);
  }
  logicalAnd(o: Operand): Tensor {
    return this.#b('logical_and', o);
  }
  logicalOr(o: Operand): Tensor {
    return this.#b('logical_or', o);
  }
  logicalXor(o: Operand): Tensor {
    return this.#b('logical_xor', o);
  }
  /** Clamps to [min, max]; either bound may be null. */
  clamp(min: Operand | null, max: Operand | null = null): Tensor {
    return new Tensor(
      native.clamp(this.#handle, min === null ? null : h(min), max === null ? null : h(max)),
    );
  }
  maskedFill(mask: Tensor, value: number | Tensor): Tensor {
    return new Tensor(native.masked_fill(this.#handle, mask.handle, h(value)));
  }

  // ---- reductions ----
  sum(dims?: number | number[], keepdim = false): Tensor {
    return new Tensor(native.sum(this.#handle, dims, keepdim));
  }
  mean(dims?: number | number[], keepdim = false): Tensor {
    return new Tensor(native.mean(this.#handle, dims, keepdim));
  }
  amax(dims?: number | number[], keepdim = false): Tensor {
    return new Tensor(native.amax(this.#handle, dims, keepdim));
  }
  amin(dims?: number | number[], keepdim = false): Tensor {
    return new Tensor(native.amin(this.#handle, dims, keepdim));
  }
  logsumexp(dims: number | number[], keepdim = false): Tensor {
    return new Tensor(native.logsumexp(this.#handle, dims, keepdim));
  }
  var(dims?: number | number[], unbiased = true, keepdim = false): Tensor {
    return new Tensor(native.var(this.#handle, dims, unbiased, keepdim));
  }
  std(dims?: number | number[], unbiased = true, keepdim = false): Tensor {
    return new Tensor(native.std(this.#handle, dims, unbiased, keepdim));
  }
  norm(p = 2, dims?: number | number[], keepdim = false): Tensor {
    return new Tensor(native.norm(this.#handle, p, dims, keepdim));
  }
  argmax(dim?: number, keepdim = false): Tensor {
    return new Tensor(native.argmax(this.#handle, dim, keepdim));
  }
  argmin(dim?: number, keepdim = false): Tensor {
    return new Tensor(native.argmin(this.#handle, dim, keepdim));
  }
  /** [values, indices] of the maximum along dim. */
  max(dim: number, keepdim = false): [Tensor, Tensor] {
    return pair(native.maxDim(this.#handle, dim, keepdim));
  }
  min(dim: number, keepdim = false): [Tensor, Tensor] {
    return pair(native.minDim(this.#handle, dim, keepdim));
  }
  all(dim?: number, keepdim = false): Tensor {
    return new Tensor(native.all(this.#handle, dim, keepdim));
  }
  any(dim?: number, keepdim = false): Tensor {
    return new Tensor(native.any(this.#handle, dim, keepdim));
  }
  cumsum(dim: number): Tensor {
    return new Tensor(native.cumsum(this.#handle, dim));
  }
  softmax(dim: number): Tensor {
    return new Tensor(native.softmax(this.#handle, dim));
  }
  logSoftmax(dim: number): Tensor {
    return new Tensor(native.log_softmax(this.#handle, dim));
  }
  sort(dim = -1, descending = false): [Tensor, Tensor] {
    return pair(native.sort(this.#handle, dim, descending));
  }
  topk(k: number, dim = -1, largest = true, sorted = true): [Tensor, Tensor] {
    return pair(native.topk(this.#handle, k, dim, largest, sorted));
  }

  // ---- shapes ----
  reshape(shape: number[]): Tensor {
    return new Tensor(native.reshape(this.#handle, shape));
  }
  view(shape: number[]): Tensor {
    return new Tensor(native.view(this.#handle, shape));
  }
  permute(dims: number[]): Tensor {
    return new Tensor(native.permute(this.#handle, dims));
  }
  transpose(dim0: number, dim1: number): Tensor {
    return new Tensor(native.transpose(this.#handle, dim0, dim1));
  }
  squeeze(dim?: number): Tensor {
    return new Tensor(native.squeeze(this.#handle, dim));
  }
  unsqueeze(dim: number): Tensor {
    return new Tensor(native.unsqueeze(this.#handle, dim));
  }
  expand(shape: number[]): Tensor {
    return new Tensor(native.expand(this.#handle, shape));
  }
  flatten(startDim = 0, endDim = -1): Tensor {
    return new Tensor(native.flatten(this.#handle, startDim, endDim));
  }
  repeat(repeats: number[]): Tensor {
    return new Tensor(native.repeat(this.#handle, repeats));
  }
  flip(dims: number[]): Tensor {
    return new Tensor(native.flip(this.#handle, dims));
  }
  narrow(dim: number, start: number, length: number): Tensor {
    return new Tensor(native.narrow(this.#handle, dim, start, length));
  }
  select(dim: number, index: number): Tensor {
    return new Tensor(native.select(this.#handle, dim, index));
  }
  split(sizes: number | number[], dim = 0): Tensor[] {
    return native.split(this.#handle, sizes, dim).map((x) => new Tensor(x));
  }
  chunk(chunks: number, dim = 0): Tensor[] {
    return native.chunk(this.#handle, chunks, dim).map((x) => new Tensor(x));
  }

  // ---- indexing ----
  indexSelect(dim: number, index: Tensor): Tensor {
    return new Tensor(native.index_select(this.#handle, dim, index.handle));
  }
  gather(dim: number, index: Tensor): Tensor {
    return new Tensor(native.gather(this.#handle, dim, index.handle));
  }
  scatter(dim: number, index: Tensor, src: Tensor | number): Tensor {
    return new Tensor(native.scatter(this.#handle, dim, index.handle, h(src)));
  }
  scatterAdd(dim: number, index: Tensor, src: Tensor): Tensor {
    return new Tensor(native.scatter_add(this.#handle, dim, index.handle, src.handle));
  }
  /** Advanced indexing t[i0, i1, ...] with int64 or bool tensors. */
  index(indices: Tensor[]): Tensor {
    return new Tensor(
      native.index(
        this.#handle,
        indices.map((i) => i.handle),
      ),
    );
  }
  nonzero(): Tensor {
    return new Tensor(native.nonzero(this.#handle));
  }
  oneHot(numClasses = -1): Tensor {
    return new Tensor(native.one_hot(this.#handle, numClasses));
  }

  // ---- linear algebra ----
  matmul(o: Tensor): Tensor {
    return new Tensor(native.matmul(this.#handle, o.handle));
  }
  mm(o: Tensor): Tensor {
    return new Tensor(native.mm(this.#handle, o.handle));
  }
  bmm(o: Tensor): Tensor {
    return new Tensor(native.bmm(this.#handle, o.handle));
  }

  // ---- in place (return this) ----
  add_(o: Operand, alpha = 1): this {
    native.add_(this.#handle, h(o), alpha);
    return this;
  }
  mul_(o: Operand): this {
    native.mul_(this.#handle, h(o));
    return this;
  }
  copy_(src: Tensor): this {
    native.copy_(this.#handle, src.handle);
    return this;
  }
  zero_(): this {
    native.zero_(this.#handle);
    return this;
  }
  fill_(value: number): this {
    native.fill_(this.#handle, value);
    return this;
  }
  lerp_(end: Tensor, weight: number): this {
    native.lerp_(this.#handle, end.handle, weight);
    return this;
  }
  maskedFill_(mask: Tensor, value: number): this {
    native.masked_fill_(this.#handle, mask.handle, value);
    return this;
  }
  /** True when both have the same shape and elements. */
  equal(o: Tensor): boolean {
    return native.equal(this.#handle, o.handle);
  }
}

function pair(hs: Handle[]): [Tensor, Tensor] {
  return [new Tensor(hs[0]!), new Tensor(hs[1]!)];
}
