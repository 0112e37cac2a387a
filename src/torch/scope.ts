// Deterministic memory for tensors (docs/design.md §3): `tidy(fn)` disposes every tensor created
// inside fn except those it returns (which move to the enclosing scope), like tf.tidy;
// `keep(t)` takes a tensor out of the current scope. Outside any scope tensors live until
// `dispose()` or garbage collection.

/** Anything that owns native memory and can be released once. */
export interface Disposable {
  dispose(): void;
}

const stack: Set<Disposable>[] = [];

/** Called by every new tensor: it belongs to the innermost scope, if any. */
export function track(t: Disposable): void {
  const top = stack[stack.length - 1];
  if (top !== undefined) top.add(t);
}

/** Removes t from the innermost scope so it outlives it. */
export function keep<T extends Disposable>(t: T): T {
  for (let i = stack.length - 1; i >= 0; i--) {
    if (stack[i]!.delete(t)) break;
  }
  return t;
}

function collect(value: unknown, out: Set<Disposable>, depth = 0): void {
  if (value === null || typeof value !== 'object' || depth > 3) return;
  if (
    typeof (value as Disposable).dispose === 'function' &&
    out.has(value as Disposable) === false
  ) {
    out.add(value as Disposable);
    return;
  }
  if (Array.isArray(value)) for (const v of value) collect(v, out, depth + 1);
  else if (Object.getPrototypeOf(value) === Object.prototype) {
    for (const v of Object.values(value)) collect(v, out, depth + 1);
  }
}

/**
 * Runs fn; disposes the tensors it created except the ones in its result (a tensor, or arrays
 * and plain objects holding tensors), which pass to the enclosing scope. fn must be synchronous.
 */
export function tidy<T>(fn: () => T): T {
  const scope = new Set<Disposable>();
  stack.push(scope);
  let result: T;
  try {
    result = fn();
  } catch (e) {
    stack.pop();
    for (const t of scope) t.dispose();
    throw e;
  }
  stack.pop();
  if (result instanceof Promise) throw new Error('tidy: fn must be synchronous');
  const survivors = new Set<Disposable>();
  collect(result, survivors);
  const parent = stack[stack.length - 1];
  for (const t of scope) {
    if (survivors.has(t)) parent?.add(t);
    else t.dispose();
  }
  return result;
}

/** How many scopes are open (for tests). */
export function scopeDepth(): number {
  return stack.length;
}
