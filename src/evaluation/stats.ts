// Summary statistics for reports over seeds: mean and (population) standard deviation.
export const mean = (xs: number[]): number =>
  xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export const std = (xs: number[]): number => {
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
};
