// The TypeScript backend (docs/design.md §3b): the addon's whole table (addon-api.ts) implemented
// in TypeScript over strided typed arrays (tensor-data.ts), so that the same processes, samplers,
// models and tasks run where libtorch does not: on any Node, and in a browser. It runs models
// (inference): every op the samplers, the three tasks' networks and their sampling paths call.
// Autograd's backward pass, the optimisers and torch.distributed are libtorch's: each is refused
// in one line that names libtorch (JS_REFUSED). It computes on the CPU in one thread; autocast's
// bfloat16 is computed in float32 here (recorded, not applied), so a bfloat16 model gives
// float32's numbers.
import {
  type BinaryOp,
  isNative,
  missingFunctions,
  type Native,
  type UnaryOp,
} from '../addon-api.js';
import { BINARY, UNARY } from '../addon-ops.js';
import type { DType } from '../types.js';
import { handOut, release } from './buffers.js';
import { avgPool2d, conv2d, upsampleNearest2d } from './conv-ops.js';
import {
  assignResult,
  binary,
  clamp,
  gelu,
  lerp,
  maskedFill,
  unary,
  where,
  writeInto,
} from './elementwise.js';
import {
  embedding,
  gather,
  index,
  indexSelect,
  nonzero,
  oneHot,
  scatter,
  scatterAdd,
} from './indexing.js';
import * as io from './io.js';
import * as layout from './layout.js';
import { bmm, eigh, einsum, linear, matmul, mm } from './linalg.js';
import { MersenneTwister } from './mersenne-twister.js';
import { crossEntropy, groupNorm, layerNorm } from './nn-ops.js';
import * as random from './random.js';
import * as reduce from './reduce.js';
import * as scans from './scans.js';
import { JsTensor, values, view } from './tensor-data.js';

/** The fix a refused op's error names. */
export const LIBTORCH_FIX =
  "install libtorch (apt-get install libtorch-dev) and run 'npm rebuild sjd': the addon is then used where it loads";

/** The table's functions this backend refuses, each in one line naming libtorch. */
export const JS_REFUSED = [
  'backward',
  'clipGradNorm',
  'newOptimizer',
  'optimStep',
  'optimZeroGrad',
  'optimGetState',
  'optimSetState',
  'newProcessGroup',
  'pgAllReduce',
  'pgBroadcast',
  'pgAllGather',
  'pgBarrier',
  'pgInfo',
  'pgDestroy',
] as const;

const WHAT: Record<(typeof JS_REFUSED)[number], string> = {
  backward: 'training (autograd)',
  clipGradNorm: 'training (autograd)',
  newOptimizer: 'training (the optimisers)',
  optimStep: 'training (the optimisers)',
  optimZeroGrad: 'training (the optimisers)',
  optimGetState: 'training (the optimisers)',
  optimSetState: 'training (the optimisers)',
  newProcessGroup: 'data-parallel training (torch.distributed)',
  pgAllReduce: 'data-parallel training (torch.distributed)',
  pgBroadcast: 'data-parallel training (torch.distributed)',
  pgAllGather: 'data-parallel training (torch.distributed)',
  pgBarrier: 'data-parallel training (torch.distributed)',
  pgInfo: 'data-parallel training (torch.distributed)',
  pgDestroy: 'data-parallel training (torch.distributed)',
};

export const refusal = (what: string) =>
  new Error(
    `${what} needs the libtorch backend; this process runs the TypeScript backend (${LIBTORCH_FIX})`,
  );

/** A handle as this backend's tensor (throws on anything else, or a disposed one). */
function T(h: unknown, what = 'tensor'): JsTensor {
  if (!(h instanceof JsTensor)) throw new TypeError(`${what}: expected a tensor`);
  if (h.disposed) throw new Error(`${what}: tensor was disposed`);
  return h;
}
/** A tensor-or-scalar operand. */
const TS = (x: unknown): JsTensor | number | boolean =>
  typeof x === 'number' || typeof x === 'boolean' ? x : T(x, 'operand');
const opt = (x: unknown) => (x === null || x === undefined ? null : T(x));

/** A result that is one of its inputs comes back as a new handle on the same elements. */
function fresh(r: JsTensor, ...inputs: unknown[]): JsTensor {
  return inputs.includes(r) ? view(r, r.shape, r.strides, r.offset) : r;
}

function checkDevice(device: string | undefined): void {
  if (device !== undefined && device !== 'cpu')
    throw new Error(`device '${device}': the TypeScript backend runs on the CPU only`);
}

let gradEnabled = true;
let autocastDtype: 'bfloat16' | 'float16' | null = null;
let live = 0;

/** Every tensor this backend hands out is counted until disposed (memoryStats). */
const out = (t: JsTensor): JsTensor => {
  live++;
  handOut(t);
  return t;
};

/** A readable print of a tensor (its elements, shape and dtype), as a debugging aid. */
function format(t: JsTensor): string {
  const v = Array.from(values(t) as ArrayLike<number>);
  const shown = v.length > 20 ? [...v.slice(0, 10), '...', ...v.slice(-10)] : v;
  return `tensor([${shown.join(', ')}], shape=[${t.shape.join(', ')}], dtype=${t.dtype})`;
}

function buildTable(): Record<string, (...a: never[]) => unknown> {
  const t: Record<string, (...a: never[]) => unknown> = {};
  // biome-ignore lint/suspicious/noExplicitAny: each entry's type is the table's (addon-api.ts); jsBackend is typed as it
  const def = (name: string, f: (...a: any[]) => unknown) => {
    t[name] = f as (...a: never[]) => unknown;
  };
  // ---- runtime ----
  def('setNumThreads', () => undefined);
  def('setParallelThreads', () => 0);
  def('getNumThreads', () => 1);
  def('getBlasThreads', () => 0);
  def('setDefaultDevice', (d: string) => checkDevice(d));
  def('setAllowTF32', () => undefined);
  def('getAllowTF32', () => false);
  def('setAutocast', (d: 'bfloat16' | 'float16' | null) => {
    const before = autocastDtype;
    autocastDtype = d;
    return before;
  });
  def('getDefaultDevice', () => 'cpu');
  def('version', () => ({
    torch: 'none',
    cuda: false,
    cudaDevices: 0,
    config: 'TypeScript backend',
    malloc: null,
  }));
  def('memoryStats', () => ({ liveTensors: live, tensorBytes: 0, keptBigBuffers: 0 }));
  // ---- data in and out, queries, factories ----
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
      live--;
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
  // ---- seeded draws ----
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
  // ---- elementwise ----
  for (const op of UNARY) def(op, (h) => out(unary(op as UnaryOp, T(h))));
  for (const op of BINARY) def(op, (a, b) => out(binary(op as BinaryOp, TS(a), TS(b))));
  def('gelu', (h, approx) => out(gelu(T(h), approx)));
  def('clamp', (h, lo, hi) =>
    out(clamp(T(h), lo === null ? null : TS(lo), hi === null || hi === undefined ? null : TS(hi))),
  );
  def('where', (c, a, b) => out(where(T(c), TS(a), TS(b))));
  def('masked_fill', (h, m, v) => out(maskedFill(T(h), T(m), TS(v))));
  // ---- reductions ----
  def('sum', (h, d, k) => out(reduce.sum(T(h), d, k)));
  def('mean', (h, d, k) => out(reduce.mean(T(h), d, k)));
  def('amax', (h, d, k) => out(reduce.amax(T(h), d, k)));
  def('amin', (h, d, k) => out(reduce.amin(T(h), d, k)));
  def('logsumexp', (h, d, k) => out(reduce.logsumexp(T(h), d, k)));
  def('var', (h, d, u, k) => out(reduce.varOp(T(h), d, u ?? true, k)));
  def('std', (h, d, u, k) => out(reduce.stdOp(T(h), d, u ?? true, k)));
  def('norm', (h, p, d, k) => out(reduce.norm(T(h), p, d, k)));
  def('argmax', (h, d, k) => out(reduce.argmax(T(h), d, k)));
  def('argmin', (h, d, k) => out(reduce.argmin(T(h), d, k)));
  def('maxDim', (h, d, k) => reduce.maxDim(T(h), d, k).map(out));
  def('minDim', (h, d, k) => reduce.minDim(T(h), d, k).map(out));
  def('all', (h, d, k) => out(reduce.all(T(h), d, k)));
  def('any', (h, d, k) => out(reduce.any(T(h), d, k)));
  def('cumsum', (h, d) => out(scans.cumsum(T(h), d)));
  def('softmax', (h, d) => out(scans.softmax(T(h), d)));
  def('log_softmax', (h, d) => out(scans.logSoftmax(T(h), d)));
  def('sort', (h, d, desc) => scans.sort(T(h), d, desc).map(out));
  def('topk', (h, k, d, l, s) => scans.topk(T(h), k, d, l ?? true, s).map(out));
  // ---- layout ----
  def('contiguous', (h) => out(fresh(layout.contiguous(T(h)), h)));
  def('clone', (h) => out(layout.clone(T(h))));
  def('detach', (h) => out(fresh(T(h), h)));
  def('reshape', (h, s) => out(layout.reshape(T(h), s)));
  def('view', (h, s) => out(layout.viewOp(T(h), s)));
  def('permute', (h, d) => out(layout.permute(T(h), d)));
  def('transpose', (h, a, b) => out(fresh(layout.transpose(T(h), a, b), h)));
  def('squeeze', (h, d) => out(layout.squeeze(T(h), d)));
  def('unsqueeze', (h, d) => out(layout.unsqueeze(T(h), d)));
  def('expand', (h, s) => out(layout.expand(T(h), s)));
  def('flatten', (h, a, b) => out(fresh(layout.flatten(T(h), a, b), h)));
  def('repeat', (h, r) => out(layout.repeat(T(h), r)));
  def('flip', (h, d) => out(layout.flip(T(h), d)));
  def('narrow', (h, d, s, n) => out(layout.narrow(T(h), d, s, n)));
  def('select', (h, d, i) => out(layout.select(T(h), d, i)));
  def('cat', (hs: unknown[], d) =>
    out(
      fresh(
        layout.cat(
          hs.map((h) => T(h)),
          d,
        ),
        ...hs,
      ),
    ),
  );
  def('stack', (hs: unknown[], d) =>
    out(
      layout.stack(
        hs.map((h) => T(h)),
        d,
      ),
    ),
  );
  def('split', (h, s, d) => layout.split(T(h), s, d).map(out));
  def('chunk', (h, c, d) => layout.chunk(T(h), c, d).map(out));
  // ---- indexing ----
  def('index_select', (h, d, i) => out(indexSelect(T(h), d, T(i))));
  def('gather', (h, d, i) => out(gather(T(h), d, T(i))));
  def('scatter', (h, d, i, s) => out(scatter(T(h), d, T(i), TS(s))));
  def('scatter_add', (h, d, i, s) => out(scatterAdd(T(h), d, T(i), T(s))));
  def('index', (h, is: unknown[]) =>
    out(
      index(
        T(h),
        is.map((i) => T(i)),
      ),
    ),
  );
  def('nonzero', (h) => out(nonzero(T(h))));
  def('one_hot', (h, n) => out(oneHot(T(h), n ?? -1)));
  def('embedding', (w, i) => out(embedding(T(w), T(i))));
  // ---- linear algebra and network ops ----
  def('matmul', (a, b) => out(matmul(T(a), T(b))));
  def('mm', (a, b) => out(mm(T(a), T(b))));
  def('bmm', (a, b) => out(bmm(T(a), T(b))));
  def('linear', (x, w, b) => out(linear(T(x), T(w), opt(b))));
  def('einsum', (eq: string, hs: unknown[]) =>
    out(
      einsum(
        eq,
        hs.map((h) => T(h)),
      ),
    ),
  );
  def('layer_norm', (x, s, w, b, e) => out(layerNorm(T(x), s, opt(w), opt(b), e ?? 1e-5)));
  def('conv2d', (x, w, b, s, p, g) => out(conv2d(T(x), T(w), opt(b), s, p, g ?? 1)));
  def('group_norm', (x, g, w, b, e) => out(groupNorm(T(x), g, opt(w), opt(b), e ?? 1e-5)));
  def('upsample_nearest2d', (x, s) => out(upsampleNearest2d(T(x), s)));
  def('avg_pool2d', (x, k, s) => out(avgPool2d(T(x), k, s)));
  def('linalg_eigh', (a) => eigh(T(a)).map(out));
  def('cross_entropy', (l, y, w, r, ig, sm) =>
    out(crossEntropy(T(l), T(y), opt(w), r ?? 'mean', ig ?? -100, sm ?? 0)),
  );
  // ---- in place ----
  def('add_', (h, o, alpha?: number) => {
    const x = T(h);
    const other = alpha === undefined || alpha === 1 ? TS(o) : binary('mul', TS(o), alpha);
    assignResult(x, binary('add', x, other), 'add_');
  });
  def('mul_', (h, o) => assignResult(T(h), binary('mul', T(h), TS(o)), 'mul_'));
  def('copy_', (h, s) => writeInto(T(h), T(s)));
  def('zero_', (h) => writeInto(T(h), 0));
  def('fill_', (h, v) => writeInto(T(h), Number(v)));
  def('lerp_', (h, e, w) => writeInto(T(h), lerp(T(h), T(e), w)));
  def('masked_fill_', (h, m, v) => writeInto(T(h), maskedFill(T(h), T(m), v)));
  def('equal', (a, b) => {
    const x = T(a);
    const y = T(b);
    if (x.shape.length !== y.shape.length || x.shape.some((s, i) => s !== y.shape[i])) return false;
    const u = values(x);
    const v = values(y);
    for (let i = 0; i < u.length; i++) if (u[i] !== v[i]) return false;
    return true;
  });
  // ---- autograd: flags kept (models mark their parameters), the backward pass refused ----
  def('setRequiresGrad', (h, on = true) => {
    T(h).requiresGrad = on;
  });
  def('grad', (h) => {
    T(h);
    return null;
  });
  def('clearGrad', (h) => void T(h));
  def('setGradEnabled', (on: boolean) => {
    gradEnabled = on;
  });
  def('isGradEnabled', () => gradEnabled);
  for (const name of JS_REFUSED)
    def(name, () => {
      throw refusal(WHAT[name]);
    });
  return t;
}

/** The TypeScript backend's table, typed as the addon's once every function is checked there. */
export const jsBackend: Native = (() => {
  const table = buildTable();
  if (isNative(table)) return table;
  throw new Error(`the TypeScript backend lacks ${missingFunctions(table).join(', ')}`);
})();
