// Sample-quality metrics in a feature space (the paper reports FID, app:cifar10-imagenet): the
// Fréchet distance between Gaussians fitted to two feature sets,
//   FD = |mu_1 - mu_2|^2 + tr(S_1 + S_2 - 2 (S_1^(1/2) S_2 S_1^(1/2))^(1/2)),
// with matrix square roots by symmetric eigendecomposition (eigenvalues clamped at 0), and the
// kernel inception distance KID: the unbiased MMD^2 with the cubic polynomial kernel
// k(x, y) = (x.y / D + 1)^3, averaged over disjoint subsets. All in float64.
import { eigh, eye, noGrad, type Tensor, tidy } from '../../torch/index.js';

/** The trace of a square matrix [n, n]. */
const trace = (t: Tensor): number =>
  t
    .mul(eye(t.size(0), t.dtype))
    .sum()
    .item();

/** features [n, D] -> mean [D] and unbiased covariance [D, D], float64. */
export function gaussianFit(features: Tensor): { mean: Tensor; cov: Tensor } {
  const x = features.to('float64');
  const n = x.size(0);
  if (n < 2) throw new Error(`a Gaussian fit needs at least 2 feature vectors, got ${n}`);
  const mean = x.mean([0]); // [D]
  const c = x.sub(mean); // [n, D]
  return {
    mean,
    cov: c
      .transpose(0, 1)
      .matmul(c)
      .div(n - 1),
  };
}

/** The symmetric PSD square root of A [D, D] (negative eigenvalues of round-off clamped to 0). */
function sqrtPsd(a: Tensor): Tensor {
  const [l, v] = eigh(a.add(a.transpose(0, 1)).mul(0.5));
  return v.mul(l.clamp(0, null).sqrt().unsqueeze(0)).matmul(v.transpose(0, 1));
}

/** The Fréchet distance between the Gaussian fits of features a [n, D] and b [m, D]. */
export function frechetDistance(a: Tensor, b: Tensor): number {
  return noGrad(() =>
    tidy(() => {
      const p = gaussianFit(a);
      const q = gaussianFit(b);
      const r = sqrtPsd(p.cov);
      const [l] = eigh(r.matmul(q.cov).matmul(r)); // eigenvalues of S1^1/2 S2 S1^1/2
      const cross = l.clamp(0, null).sqrt().sum().item();
      const d2 = p.mean.sub(q.mean).square().sum().item();
      return d2 + trace(p.cov) + trace(q.cov) - 2 * cross;
    }),
  );
}

/** Unbiased MMD^2 between a [n, D] and b [m, D] with k(x, y) = (x.y / D + 1)^3. */
function mmd2(a: Tensor, b: Tensor): number {
  const D = a.size(1);
  const k = (x: Tensor, y: Tensor) => x.matmul(y.transpose(0, 1)).div(D).add(1).pow(3);
  const [n, m] = [a.size(0), b.size(0)];
  const kaa = k(a, a);
  const kbb = k(b, b);
  const offDiag = (t: Tensor, s: number) => (t.sum().item() - trace(t)) / (s * (s - 1));
  return offDiag(kaa, n) + offDiag(kbb, m) - (2 * k(a, b).sum().item()) / (n * m);
}

/** KID: MMD^2 averaged over `subsets` disjoint pairs of subsets of equal size (at most 1000). */
export function kernelDistance(a: Tensor, b: Tensor, subsets = 10): number {
  return noGrad(() =>
    tidy(() => {
      const x = a.to('float64');
      const y = b.to('float64');
      const size = Math.min(1000, Math.floor(Math.min(x.size(0), y.size(0)) / subsets));
      if (size < 2) throw new Error(`KID needs at least ${2 * subsets} feature vectors a side`);
      let total = 0;
      for (let s = 0; s < subsets; s++)
        total += mmd2(x.narrow(0, s * size, size), y.narrow(0, s * size, size));
      return total / subsets;
    }),
  );
}
