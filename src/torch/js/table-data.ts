// The TypeScript backend's table, its first part (backend.ts assembles it): the runtime's
// settings, data in and out, queries and factories, and the seeded draws.
import type { DType } from '../types.js';
import { release } from './buffers.js';
import * as io from './io.js';
import * as layout from './layout.js';
import { MersenneTwister } from './mersenne-twister.js';
import * as random from './random.js';
import { checkDevice, type Def, format, fresh, out, state, T } from './table-kit.js';
import { JsTensor } from './tensor-data.js';

/** The runtime: one thread, the CPU, autocast recorded, what the backend says of itself. */
export function defineRuntime(def: Def): void {
  def('setNumThreads', () => undefined);
  def('setParallelThreads', () => 0);
  def('getNumThreads', () => 1);
  def('getBlasThreads', () => 0);
  def('setDefaultDevice', (d: string) => checkDevice(d));
  def('setAllowTF32', () => undefined);
  def('getAllowTF32', () => false);
  def('setAutocast', (d: 'bfloat16' | 'float16' | null) => {
    const before = state.autocastDtype;
    state.autocastDtype = d;
    return before;
  });
  def('getDefaultDevice', () => 'cpu');
  def('version', () => ({
    torch: 'none',
    cuda: false,
    cudaDevices: 0,
    cudaBf16: false,
    config: 'TypeScript backend',
    malloc: null,
  }));
  def('memoryStats', () => ({ liveTensors: state.live, tensorBytes: 0, keptBigBuffers: 0 }));
}

/** Data in and out, queries, disposal, factories. */
export function defineData(def: Def): void {
  def('fromTyped', (d, s, dt) => out(io.fromTyped(d, s, dt)));
  def('fromBytes', (b, dt, s) => out(io.fromBytes(b, dt, s)));
  def('toTyped', (h) => io.toTyped(T(h)));
  def('bytes', (h) => io.bytes(T(h)));
  def('item', (h) => io.item(T(h)));
  def('info', (h) => {
    const x = T(h);
    return { shape: x.shape.slice(), dtype: x.dtype, device: 'cpu', requiresGrad: x.requiresGrad };
  });
  def('shape', (h) => T(h).shape.slice());
  def('dtype', (h) => T(h).dtype);
  def('device', (h) => {
    T(h);
    return 'cpu';
  });
  def('format', (h) => format(T(h)));
  def('dispose', (h) => {
    if (!(h instanceof JsTensor)) throw new TypeError('dispose: expected a tensor');
    if (!h.disposed) {
      state.live--;
      release(h);
    }
    h.disposed = true;
  });
  def('isDisposed', (h) => {
    if (!(h instanceof JsTensor)) throw new TypeError('isDisposed: expected a tensor');
    return h.disposed;
  });
  // biome-ignore lint/suspicious/noExplicitAny: as def's
  const factory = (name: string, f: (...a: any[]) => JsTensor, deviceAt: number) =>
    def(name, (...a) => {
      checkDevice(a[deviceAt]);
      return out(f(...a));
    });
  factory('zeros', (s, d) => io.zeros(s, d), 2);
  factory('ones', (s, d) => io.ones(s, d), 2);
  factory('full', (s, v, d) => io.full(s, v, d), 3);
  factory('arange', (a, b, st, d) => io.arange(a, b, st, d), 4);
  factory('linspace', (a, b, n, d) => io.linspace(a, b, n, d), 4);
  factory('eye', (n, d) => io.eye(n, d), 2);
  def('to', (h, d?: DType, dev?: string) => {
    checkDevice(dev);
    return out(fresh(io.to(T(h), d), h));
  });
}

/** The seeded draws, on this backend's generators (mersenne-twister.ts). */
export function defineDraws(def: Def): void {
  def('newGenerator', (seed: number | bigint) => new MersenneTwister(seed));
  const G = (g: unknown) => {
    if (!(g instanceof MersenneTwister)) throw new TypeError('generator: expected a generator');
    return g;
  };
  def('generatorGetState', (g) => out(io.fromTyped(G(g).bytes(), [G(g).bytes().length])));
  def('generatorSetState', (g, s) => G(g).setBytes(io.toTyped(T(s)) as Uint8Array));
  def('rand', (s, g, d, dev) => {
    checkDevice(dev);
    return out(random.rand(io.checkShape(s, 'rand'), G(g), d));
  });
  def('randn', (s, g, d, dev) => {
    checkDevice(dev);
    return out(random.randn(io.checkShape(s, 'randn'), G(g), d));
  });
  def('randnRows', (gens: unknown[], counts: number[], tail: number[], d?: DType, dev?: string) => {
    checkDevice(dev);
    if (!Array.isArray(gens)) throw new TypeError('randnRows: gens must be an array');
    if (gens.length !== counts.length) throw new RangeError('randnRows: one count a generator');
    const parts = gens
      .map((g, r) => {
        if (counts[r]! < 0) throw new RangeError('randnRows: counts must be >= 0');
        return counts[r] === 0 ? null : random.randn([counts[r]!, ...tail], G(g), d);
      })
      .filter((x): x is JsTensor => x !== null);
    return out(parts.length === 0 ? io.zeros([0, ...tail], d) : layout.cat(parts, 0));
  });
  def('randint', (lo, hi, s, g, dev) => {
    checkDevice(dev);
    return out(random.randint(lo, hi, io.checkShape(s, 'randint'), G(g)));
  });
  def('randperm', (n, g, dev) => {
    checkDevice(dev);
    return out(random.randperm(n, G(g)));
  });
  def('bernoulli', (p, g) => out(random.bernoulli(T(p), G(g))));
  def('multinomial', (p, n, rep, g) => out(random.multinomial(T(p), n, rep, G(g))));
  def('dropout', (x, p, train, g) => out(fresh(random.dropout(T(x), p, train, G(g)), x)));
}
