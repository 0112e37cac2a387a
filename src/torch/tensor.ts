// The Tensor class: an owned libtorch tensor handle with PyTorch-named methods, each one call
// into the addon (docs/design.md §3). Numbers next to tensors follow PyTorch's scalar promotion.
// Every new Tensor joins the innermost `tidy` scope; `dispose()` frees it at once.
// Most methods are not written here but derived from the addon's table (addon-api.ts): each
// function METHODS names becomes the method of its name in camelCase (log_softmax: logSoftmax),
// with this tensor as the first argument, Tensors where the table takes handles, and the result
// as a new Tensor. The methods written out below are the ones that do something else.
import { inspect } from 'node:util';
import { BINARY, UNARY } from './addon-api.js';
import { type Handle, type Native, native } from './native.js';
import { type Disposable, track } from './scope.js';
import type { DType, TypedArray } from './types.js';

export type { DType, Reduction, TypedArray } from './types.js';
/** A tensor or a JavaScript scalar operand. */
export type Operand = Tensor | number | boolean;

/**
 * The table's functions that are Tensor methods as they stand: every elementwise op, and the
 * others that take this tensor first and give one tensor back. An argument left out takes the
 * addon's default (PyTorch's); methods that need another default are written out below.
 */
// biome-ignore format: grouped as the methods are
const METHODS = [
  ...UNARY, ...BINARY, 'gelu', 'clamp',
  'to', 'contiguous', 'clone', 'detach',
  'sum', 'mean', 'amax', 'amin', 'logsumexp', 'var', 'std', 'argmax', 'argmin', 'all', 'any',
  'cumsum', 'softmax', 'log_softmax',
  'reshape', 'view', 'permute', 'transpose', 'squeeze', 'unsqueeze', 'expand', 'flatten',
  'repeat', 'flip', 'narrow', 'select',
  'index_select', 'gather', 'scatter_add', 'nonzero', 'one_hot', 'matmul', 'mm', 'bmm',
] as const satisfies readonly (keyof Native)[];

/** The methods' naming of a table name: log_softmax -> logSoftmax. */
type Camel<S extends string> = S extends `${infer A}_${infer B}`
  ? `${A}${Capitalize<Camel<B>>}`
  : S;
const camel = (name: string): string => name.replace(/_(.)/g, (_, c: string) => c.toUpperCase());
/** A handle parameter takes a Tensor (numbers, flags, arrays and null stay as they are). */
type Arg<X> = X extends Handle ? Tensor : X;
/** The method of a table function: its parameters after the first, the result a Tensor. */
type MethodOf<F> = F extends (first: never, ...rest: infer P) => Handle
  ? (...args: { [I in keyof P]: Arg<P[I]> }) => Tensor
  : never;
type Derived = { [K in (typeof METHODS)[number] as Camel<K>]: MethodOf<Native[K]> };

/** A Tensor argument as its handle; anything else as it is. */
const h = <T>(x: T | Tensor): T | Handle => (x instanceof Tensor ? x.handle : x);

/** The methods derived from the table (installed by the class's static block). */
export interface Tensor extends Derived {}
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface only types the methods the static block installs
export class Tensor implements Disposable {
  #handle: Handle;

  constructor(handle: Handle) {
    this.#handle = handle;
    track(this);
  }

  // The methods of METHODS, on the prototype as written-out methods would be.
  static {
    for (const op of METHODS) {
      const name = camel(op);
      const method = {
        [name](this: Tensor, ...args: unknown[]): Tensor {
          return new Tensor(Reflect.apply(native[op], native, [this.#handle, ...args.map(h)]));
        },
      }[name];
      Object.defineProperty(Tensor.prototype, name, {
        value: method,
        writable: true,
        configurable: true,
      });
    }
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

  // ---- conversion: shorthands for to() ----
  float(): Tensor {
    return this.to('float32');
  }
  double(): Tensor {
    return this.to('float64');
  }
  long(): Tensor {
    return this.to('int64');
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

  // ---- written out: a default the addon lacks (it needs p, dim), a pair or list result ----
  norm(p = 2, dims?: number | number[], keepdim = false): Tensor {
    return new Tensor(native.norm(this.#handle, p, dims, keepdim));
  }
  /** [values, indices] of the maximum along dim (the table's maxDim). */
  max(dim: number, keepdim = false): [Tensor, Tensor] {
    return pair(native.maxDim(this.#handle, dim, keepdim));
  }
  min(dim: number, keepdim = false): [Tensor, Tensor] {
    return pair(native.minDim(this.#handle, dim, keepdim));
  }
  sort(dim = -1, descending = false): [Tensor, Tensor] {
    return pair(native.sort(this.#handle, dim, descending));
  }
  topk(k: number, dim = -1, largest = true, sorted = true): [Tensor, Tensor] {
    return pair(native.topk(this.#handle, k, dim, largest, sorted));
  }
  split(sizes: number | number[], dim = 0): Tensor[] {
    return native.split(this.#handle, sizes, dim).map((x) => new Tensor(x));
  }
  chunk(chunks: number, dim = 0): Tensor[] {
    return native.chunk(this.#handle, chunks, dim).map((x) => new Tensor(x));
  }

  // ---- written out: operands narrower than the table's (no booleans), a list of tensors ----
  scatter(dim: number, index: Tensor, src: Tensor | number): Tensor {
    return new Tensor(native.scatter(this.#handle, dim, index.handle, h(src)));
  }
  maskedFill(mask: Tensor, value: number | Tensor): Tensor {
    return new Tensor(native.masked_fill(this.#handle, mask.handle, h(value)));
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
