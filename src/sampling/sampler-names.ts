// A sampler's name as a type (registry.ts holds the samplers by it).

/**
 * The sampler names the registry knows, as a type: sjd's own. A module that registers a sampler
 * of its own (registerSampler) adds its name here by declaration merging, so that a name is
 * checked where it is written; a name read from text becomes one through samplerName.
 */
export interface SamplerNames {
  sjd: true;
  'sjd-refresh': true;
  mdlm: true;
  confidence: true;
  adaptive: true;
  'adaptive-remask': true;
  ancestral: true;
  'ancestral-refresh': true;
  candi: true;
  'candi-cache': true;
}
export type SamplerName = keyof SamplerNames & string;
