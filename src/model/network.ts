// The denoising classifiers P_theta(a | y, t) that sjd trains (sec:classifier): the transformer
// (denoiser.ts) for sequences and boards, and the U-Net (unet.ts) for images. Both map the state
// y [B, L, d], the time t [B] and the on-anchor flags [B, L] to logits [B, L, K], carry their
// anchors E [K, d], and name their lookup tables (not weight-decayed).
import { Denoiser } from './denoiser.js';
import { UNetDenoiser } from './unet.js';

export type Network = Denoiser | UNetDenoiser;

/** The number of tokens L a network reads. */
export function networkLength(m: Network): number {
  if (m instanceof Denoiser) return m.config.length;
  const { height, width, channels } = m.config;
  return height * width * channels;
}

export { Denoiser, UNetDenoiser };
