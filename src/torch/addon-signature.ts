// The vocabulary of the addon's typed table (addon-api.ts, addon-ops.ts; docs/design.md §3): the
// opaque handles through which tensors, generators, optimizers and process groups are reached in
// libtorch, and `fn`, a table entry whose type is one function's signature.
/** An opaque libtorch tensor handle (a tagged N-API External). */
export type Handle = { readonly __tensor: unique symbol };
/** An opaque libtorch generator handle. */
export type GenHandle = { readonly __generator: unique symbol };
/** An opaque libtorch optimizer handle. */
export type OptHandle = { readonly __optimizer: unique symbol };
/** An opaque c10d process-group handle. */
export type GroupHandle = { readonly __group: unique symbol };

/** A tensor, or a number/boolean the addon wraps as a scalar (PyTorch's promotion rules). */
export type HandleOrScalar = Handle | number | boolean;
/** One dimension or several. */
export type Dims = number | number[];
/** A table entry: its value only marks the name, its type is the function's signature. */
export type Sig<F> = { readonly signature?: F };
export const fn = <F extends (...args: never[]) => unknown>(): Sig<F> => ({});
