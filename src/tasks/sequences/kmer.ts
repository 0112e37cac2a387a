// How close samples are to held-out data, symbol for symbol: the total variation distance between
// the two sets' k-mer distributions (every window of k symbols inside a sequence, PAD excluded),
// TV(p, q) = 1/2 sum_m |p(m) - q(m)|, in [0, 1]: 0 when the k-mer frequencies agree, 1 when the
// two sets share no k-mer. A finite sample of the same law is above 0 by sampling noise alone,
// which the held-out data against itself (two halves) shows.

/** The k-mer frequencies of sequences (strings), as a map from k-mer to its share. */
export function kmerDistribution(sequences: string[], k: number): Map<string, number> {
  if (!(Number.isInteger(k) && k >= 1)) throw new Error(`k must be a whole number >= 1, got ${k}`);
  const counts = new Map<string, number>();
  let total = 0;
  for (const s of sequences) {
    const c = Array.from(s);
    for (let i = 0; i + k <= c.length; i++) {
      const m = c.slice(i, i + k).join('');
      counts.set(m, (counts.get(m) ?? 0) + 1);
      total++;
    }
  }
  for (const [m, n] of counts) counts.set(m, n / Math.max(total, 1));
  return counts;
}

/** The total variation distance between two k-mer distributions. */
export function totalVariation(p: Map<string, number>, q: Map<string, number>): number {
  let sum = 0;
  for (const [m, v] of p) sum += Math.abs(v - (q.get(m) ?? 0));
  for (const [m, v] of q) if (!p.has(m)) sum += v;
  return sum / 2;
}

/** TV between the k-mer distributions of `samples` and `reference`. */
export const kmerDistance = (samples: string[], reference: string[], k: number): number =>
  totalVariation(kmerDistribution(samples, k), kmerDistribution(reference, k));
