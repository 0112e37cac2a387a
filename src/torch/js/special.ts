// Special functions of the TypeScript backend's elementwise ops, in float64 (docs/design.md §4):
// erf (series below 2.5, Lentz's continued fraction for erfc above; for float32 results
// Abramowitz and Stegun's 7.1.26, within 1.5e-7, below float32's spacing near 1), erfinv (Giles's
// single-precision approximation refined by Newton steps on erf), lgamma (Lanczos, g = 7) and
// round half to even (libtorch's round, C's nearbyint).

const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);

/** erfc(x) for x >= 2.5 by the continued fraction erfc x = e^{-x^2}/sqrt(pi) / (x + 1/2/(x + 1/(x + 3/2/(x + ...)))). */
function erfcLarge(x: number): number {
  // modified Lentz on K = x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...))))
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let n = 1; n < 500; n++) {
    const a = n / 2;
    d = x + a * d;
    d = Math.abs(d) < tiny ? 1 / tiny : 1 / d;
    c = x + a / c;
    if (Math.abs(c) < tiny) c = tiny;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}

/** erf within 1.5e-7 (Abramowitz and Stegun 7.1.26): for results stored in float32. */
export function erf32(x: number): number {
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) *
      t *
      Math.exp(-a * a);
  return x < 0 ? -y : y;
}

export function erf(x: number): number {
  if (Number.isNaN(x)) return x;
  const a = Math.abs(x);
  if (a >= 6) return Math.sign(x);
  if (a >= 2.5) return Math.sign(x) * (1 - erfcLarge(a));
  // Taylor series: sum (-1)^n x^(2n+1) / (n! (2n+1))
  const x2 = x * x;
  let term = x;
  let sum = x;
  for (let n = 1; n < 200; n++) {
    term *= -x2 / n;
    const t = term / (2 * n + 1);
    sum += t;
    if (Math.abs(t) < 1e-17 * Math.abs(sum)) break;
  }
  return TWO_OVER_SQRT_PI * sum;
}

export function erfinv(y: number): number {
  if (Number.isNaN(y) || y < -1 || y > 1) return Number.NaN;
  if (y === 1) return Number.POSITIVE_INFINITY;
  if (y === -1) return Number.NEGATIVE_INFINITY;
  // Giles (2010), single precision
  let w = -Math.log((1 - y) * (1 + y));
  let p: number;
  if (w < 5) {
    w -= 2.5;
    p = 2.81022636e-8;
    p = 3.43273939e-7 + p * w;
    p = -3.5233877e-6 + p * w;
    p = -4.39150654e-6 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    w = Math.sqrt(w) - 3;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  let x = p * y;
  // Newton on erf(x) = y: x -= (erf(x) - y) / (2/sqrt(pi) e^{-x^2})
  for (let k = 0; k < 3; k++) {
    const e = erf(x) - y;
    x -= e / (TWO_OVER_SQRT_PI * Math.exp(-x * x));
  }
  return x;
}

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7,
];

export function lgamma(x: number): number {
  if (Number.isNaN(x)) return x;
  if (!Number.isFinite(x)) return Number.POSITIVE_INFINITY;
  if (x <= 0 && Number.isInteger(x)) return Number.POSITIVE_INFINITY;
  if (x < 0.5) {
    // reflection: lgamma(x) = log(pi / |sin(pi x)|) - lgamma(1 - x)
    return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lgamma(1 - x);
  }
  const z = x - 1;
  let a = LANCZOS[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Round half to even (libtorch's round). */
export function roundHalfEven(x: number): number {
  if (!Number.isFinite(x)) return x;
  const r = Math.round(x);
  return Math.abs(x - Math.trunc(x)) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}
