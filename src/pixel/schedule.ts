// The noise schedules of the pixel-space Gaussian baselines of tab:cifar10_fid
// (app:cifar10-imagenet, "Model-specific settings"), both written as the variance-preserving law
// x_t = sqrt(abar(t)) x_0 + sqrt(1 - abar(t)) eps on t in [0, 1]:
//   ddpm    Ho et al.'s discrete chain: beta_n linear from 1e-4 to 2e-2 over N = 1000 steps,
//           abar_n = prod_{k <= n} (1 - beta_k); time t stands for step n = ceil(N t) (the network
//           reads n / N), so a continuous draw of t is a uniform draw of n in 1..N;
//   linear  Bit Diffusion's "linear signal schedule": abar(t) = 1 - t (Chen et al.'s gamma(t) =
//           1 - t), continuous.
// Both are limits of nothing in the SJD engine: no sticking, no anchors (process/ is not used).
// Computed in float64 (docs/design.md §4).

export interface PixelSchedule {
  readonly name: 'ddpm' | 'linear';
  /** the time the process is at for a draw t in (0, 1] (DDPM: its step n / N; else t itself) */
  snap(t: number): number;
  /** abar at a snapped time t in [0, 1]: 1 at t = 0 */
  alphaBar(t: number): number;
}

/** DDPM's schedule: `steps` betas linear from betaMin to betaMax (Ho et al.: 1000, 1e-4, 2e-2). */
export function ddpmSchedule(steps = 1000, betaMin = 1e-4, betaMax = 2e-2): PixelSchedule {
  const abar = new Float64Array(steps + 1); // abar[n], abar[0] = 1
  abar[0] = 1;
  for (let n = 1; n <= steps; n++) {
    const beta = steps === 1 ? betaMin : betaMin + ((betaMax - betaMin) * (n - 1)) / (steps - 1);
    abar[n] = abar[n - 1]! * (1 - beta);
  }
  const step = (t: number) => Math.min(steps, Math.max(0, Math.round(t * steps)));
  return {
    name: 'ddpm',
    snap: (t) => Math.min(steps, Math.max(1, Math.ceil(t * steps - 1e-9))) / steps,
    alphaBar: (t) => abar[step(t)]!,
  };
}

/** Bit Diffusion's linear signal schedule abar(t) = 1 - t. */
export const linearSignalSchedule: PixelSchedule = {
  name: 'linear',
  snap: (t) => t,
  alphaBar: (t) => Math.min(1, Math.max(0, 1 - t)),
};
