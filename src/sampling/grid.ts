// Reverse-time grids from t = T down to 0 with n steps (n model evaluations): uniform, or
// cosine t_k = T cos(pi k / 2n) (MD4's sampling grid: small steps near T, larger near 0).
export const GRID_KINDS = ['cosine', 'uniform'] as const;
export type GridKind = (typeof GRID_KINDS)[number];

export function timeGrid(kind: GridKind, n: number, T: number): Float64Array {
  if (!(Number.isInteger(n) && n >= 1))
    throw new Error(`steps must be a positive integer, got ${n}`);
  const out = new Float64Array(n + 1);
  for (let k = 0; k <= n; k++) {
    if (kind === 'uniform') out[k] = T * (1 - k / n);
    else if (kind === 'cosine') out[k] = T * Math.cos((Math.PI / 2) * (k / n));
    else throw new Error(`unknown grid '${kind}' (${GRID_KINDS.join(', ')})`);
  }
  out[n] = 0;
  return out;
}
