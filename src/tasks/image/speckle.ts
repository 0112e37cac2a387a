// Where speckle comes from: the continuous models' image samples are speckled, isolated pixels
// committed against their neighbours. Two measures, computed on samples and, for reference, on real
// images:
//   speckle     the share of pixel values that differ from the median of their (up to 8)
//               neighbours in the same channel by more than a quarter of the level range: an
//               isolated outlier; real images score near 0 (measured on the test set);
//   last_step   the share of sites a run commits at its last step (the forced commit of
//               whatever is still active), from the sampler's recorded trajectory.
// Computed on the levels [n, C, H, W] as sampled (tokens.ts's layout), in plain arithmetic.
import type { TrajectoryStep } from '../../sampling/index.js';
import type { ImageGeometry } from './tokens.js';

/** The share of pixel values off their neighbours' median by more than `threshold` of the range. */
export function speckleFraction(
  images: Uint8Array,
  n: number,
  g: ImageGeometry,
  threshold = 0.25,
): number {
  const { channels: C, height: H, width: W, levels: K } = g;
  if (images.length !== n * C * H * W)
    throw new Error(`speckle: ${images.length} values for ${n} images of ${H} x ${W} x ${C}`);
  const limit = threshold * (K - 1);
  let off = 0;
  const around: number[] = [];
  for (let b = 0; b < n; b++)
    for (let c = 0; c < C; c++) {
      const base = (b * C + c) * H * W;
      for (let y = 0; y < H; y++)
        for (let x = 0; x < W; x++) {
          around.length = 0;
          for (let dy = -1; dy <= 1; dy++)
            for (let dx = -1; dx <= 1; dx++) {
              const [yy, xx] = [y + dy, x + dx];
              if ((dy || dx) && yy >= 0 && yy < H && xx >= 0 && xx < W)
                around.push(images[base + yy * W + xx]!);
            }
          around.sort((p, q) => p - q);
          const m = around.length;
          const median = m % 2 ? around[(m - 1) / 2]! : (around[m / 2 - 1]! + around[m / 2]!) / 2;
          if (Math.abs(images[base + y * W + x]! - median) > limit) off++;
        }
    }
  return off / (n * C * H * W);
}

/** The share of sites committed at the last step of a recorded run (0 for a run of one step). */
export function lastStepShare(trajectory: TrajectoryStep[]): number {
  if (trajectory.length < 2) return 0;
  const count = (s: TrajectoryStep) => s.committed.reduce((a, v) => a + (v ? 1 : 0), 0);
  const last = trajectory.at(-1)!;
  return (count(last) - count(trajectory.at(-2)!)) / last.committed.length;
}
