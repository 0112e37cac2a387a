// --model of the image commands (`sjd sample image`, `sjd eval image`): a run or exported model,
// else the shipped one.
export const MODEL_OPTION = [
  '--model <dir>',
  'an image run folder or exported image model (default: the shipped one)',
] as const;
