// Grey levels of image tokens. The paper's image experiments (app:cifar10-imagenet) use all 256
// uint8 values per channel; smaller models may use fewer levels, a power of two from 2 to 256, so
// that each level is a whole bin of 256 / levels byte values:
//   reduce: v -> floor(v * levels / 256)             (0..255 -> 0..levels-1)
//   expand: k -> round(k * 255 / (levels - 1))       (0..levels-1 -> 0..255, for display)
// Expansion spans black to white (level 0 is 0, the top level 255) rather than taking bin centres,
// so reduced images keep full contrast; each expanded value lies in its own bin, so
// reduce(expand(k)) = k, and both maps are the identity at 256 levels.

/** Refuses a level count that is not a power of two from 2 to 256, in one line. */
export function checkLevels(levels: number): void {
  if (!Number.isInteger(levels) || levels < 2 || levels > 256 || (levels & (levels - 1)) !== 0)
    throw new Error(`levels must be a power of two from 2 to 256, got ${levels}`);
}

/** Byte values [n] in 0..255 to levels [n] in 0..levels-1. */
export function reduceLevels(values: Uint8Array, levels: number): Uint8Array {
  checkLevels(levels);
  const shift = Math.log2(256 / levels); // floor(v * levels / 256) = v >> shift
  return values.map((v) => v >> shift);
}

/** Levels [n] in 0..levels-1 to byte values [n] in 0..255 (black to white). */
export function expandLevels(values: Uint8Array, levels: number): Uint8Array {
  checkLevels(levels);
  const byte = Uint8Array.from({ length: levels }, (_, k) => Math.round((k * 255) / (levels - 1)));
  return values.map((k) => {
    if (k >= levels) throw new Error(`level ${k} is out of range for ${levels} levels`);
    return byte[k]!;
  });
}
