// The settings of one image comparison (comparison.ts), which its scores (scores.ts) read too:
// the runs' folder, size, budget and seeds, the models, and how their samples are drawn and scored.
import type { SamplerName } from '../../sampling/index.js';
import type { ComparisonRuns } from '../../tasks/common/task-spec.js';
import type { ImageSet } from '../../tasks/image/dataset.js';
import type { FeatureNet } from '../../tasks/image/feature-net.js';

export interface ImageCompareOptions extends ComparisonRuns {
  models: string[]; // 'masked', 'hybrid', 'sjd-<sigma_B>'
  nfes: number[];
  /** the sampler of the hybrid and SJD models (masked ones: MDLM's ancestral sampler) */
  sampler: SamplerName;
  /** top-p of the masked models' draws (the paper's MD4: MD4_TOP_P) */
  maskedTopP: number;
  /** top-p of the hybrid and SJD models' commit draws (1, the whole distribution: the paper's) */
  topP: number;
  n: number; // images per scored set
  features: { net: FeatureNet; path: string; accuracy: number };
  train: ImageSet; // the reference images
  test: ImageSet; // the floor
  doc: string; // Markdown path; the plot and sample grids go beside it
}
