// The arms of the hazard tables of app:e2e-hazard (hazards.ts runs them), on the text
// comparison's network at W = I, eta = 1 (the hybrid process), each with the paper's numbers:
//   tab:frozen-hazard  frozen w(a) proportional to freq(a)^gamma at spreads 2x and 4x in each
//                      direction against uniform, plain cross-entropy (arms uniform, freq-2,
//                      freq-4, anti-2, anti-4);
//   tab:e2e-text8      the classifier trained by the ELBO with w = 1 fixed (elbo) and with w
//                      learned (learned-bounded, learned-uniform-ce), each read out with its own w
//                      ("deployed") and with w = 1 ("w = 1 sampler"), against plain CE (uniform).
// Also what one arm's run at one seed yields.

/** An arm: its hazard-weights spec and objective, the run folder's name, the paper's numbers. */
export interface Arm {
  spec?: string;
  objective?: 'elbo';
  folder: string;
  table: 'frozen' | 'learned';
  label: string;
  paper: { deployed: string; uniform?: string; spread: string };
}

export const HAZARD_ARMS: Record<string, Arm> = {
  uniform: {
    folder: 'hybrid', // the text comparison's CADD run: the same config
    table: 'frozen',
    label: 'uniform (w = 1), plain CE',
    paper: { deployed: '0.263 +- 0.000 (150k); 0.27 (tab:e2e-text8)', spread: '1x' },
  },
  'anti-4': {
    spec: 'anti-spread:4',
    folder: 'hybrid-anti-4',
    table: 'frozen',
    label: 'anti-frequency, 4x',
    paper: { deployed: '0.262 +- 0.004', spread: '4x' },
  },
  'anti-2': {
    spec: 'anti-spread:2',
    folder: 'hybrid-anti-2',
    table: 'frozen',
    label: 'anti-frequency, 2x',
    paper: { deployed: '0.272 +- 0.015', spread: '2x' },
  },
  'freq-2': {
    spec: 'freq-spread:2',
    folder: 'hybrid-freq-2',
    table: 'frozen',
    label: 'frequency, 2x',
    paper: { deployed: '0.279 +- 0.013', spread: '2x' },
  },
  'freq-4': {
    spec: 'freq-spread:4',
    folder: 'hybrid-freq-4',
    table: 'frozen',
    label: 'frequency, 4x',
    paper: { deployed: '0.279 +- 0.008', spread: '4x' },
  },
  elbo: {
    objective: 'elbo',
    folder: 'hybrid-elbo',
    table: 'learned',
    label: 'fixed hazard (uniform), ELBO-trained',
    paper: { deployed: '0.13', uniform: '0.13', spread: '1x' },
  },
  'learned-bounded': {
    spec: 'learned-bounded',
    folder: 'hybrid-learned-bounded',
    table: 'learned',
    label: 'learned, bounded (CE-driven)',
    paper: { deployed: '0.066', uniform: '0.10', spread: '4x, frequency (+0.99)' },
  },
  'learned-uniform-ce': {
    spec: 'learned-uniform-ce',
    folder: 'hybrid-learned-uniform-ce',
    table: 'learned',
    label: 'learned, uniform-CE (L_RB-driven)',
    paper: { deployed: '0.014', uniform: '0.14', spread: '403x, anti-frequency (-0.7)' },
  },
};

export interface ArmRun {
  arm: string;
  seed: number;
  deployed: number; // max valid words >= 5 over the sweep
  uniform?: number; // the same with w = 1 at sampling (learned arms)
  w?: number[]; // learned weights
}

/** The arms' names, checked: 'all' for every one. */
export function parseArms(v: string): string[] {
  const arms = v === 'all' ? Object.keys(HAZARD_ARMS) : v.split(',').map((s) => s.trim());
  for (const a of arms)
    if (!HAZARD_ARMS[a])
      throw new Error(`unknown hazard arm '${a}' (${Object.keys(HAZARD_ARMS).join(', ')}, or all)`);
  return arms;
}
