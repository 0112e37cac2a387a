// The TypeScript backend's table, its second part (backend.ts assembles it): the elementwise
// ops, reductions and scans, layout and indexing, linear algebra and the network ops, the
// in-place ops.
import type { BinaryOp, UnaryOp } from '../addon-api.js';
import { BINARY, UNARY } from '../addon-ops.js';
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
import * as layout from './layout.js';
import { bmm, eigh, einsum, linear, matmul, mm } from './linalg.js';
import { crossEntropy, groupNorm, layerNorm } from './nn-ops.js';
import * as reduce from './reduce.js';
import * as scans from './scans.js';
import { type Def, fresh, opt, out, T, TS } from './table-kit.js';
import { values } from './tensor-data.js';

/** The elementwise families and where, clamp, gelu, masked_fill. */
export function defineElementwise(def: Def): void {
  for (const op of UNARY) def(op, (h) => out(unary(op as UnaryOp, T(h))));
  for (const op of BINARY) def(op, (a, b) => out(binary(op as BinaryOp, TS(a), TS(b))));
  def('gelu', (h, approx) => out(gelu(T(h), approx)));
  def('clamp', (h, lo, hi) =>
    out(clamp(T(h), lo === null ? null : TS(lo), hi === null || hi === undefined ? null : TS(hi))),
  );
  def('where', (c, a, b) => out(where(T(c), TS(a), TS(b))));
  def('masked_fill', (h, m, v) => out(maskedFill(T(h), T(m), TS(v))));
}

/** The reductions and the ops along a line. */
export function defineReductions(def: Def): void {
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
}

/** Views and copies of a layout, and indexing. */
export function defineLayout(def: Def): void {
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
  // indexing
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
}

/** Linear algebra and the network ops. */
export function defineNetwork(def: Def): void {
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
}

/** The in-place ops, and equal. */
export function defineInPlace(def: Def): void {
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
}
