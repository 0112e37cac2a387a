// Text8 sample metrics (sec:exp-text8, app:text8; docs/design.md §5). Words are the space-separated
// runs of a sample. Valid-word fraction at length >= n: the dictionary is the distinct words
// of length >= n of the held-out (test) split; per sample |set(words >= n) ∩ dict| / #(words >= n),
// averaged over samples (a sample with no word of that length scores 0). Unique-word
// fraction: per sample |set(words)| / #words, averaged (0 for a sample with no word).
// The reference point of a frontier is held-out text scored the same way (evenly spaced
// windows of the sample length).
export function words(s: string): string[] {
  return s.split(' ').filter((w) => w.length > 0);
}

/** The distinct words of length >= minLen in `text`. */
export function dictionary(text: string, minLen: number): Set<string> {
  return new Set(words(text).filter((w) => w.length >= minLen));
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export function validWordFraction(samples: string[], dict: Set<string>, minLen: number): number {
  return mean(
    samples.map((s) => {
      const ws = words(s).filter((w) => w.length >= minLen);
      if (ws.length === 0) return 0;
      let hit = 0;
      for (const w of new Set(ws)) if (dict.has(w)) hit++;
      return hit / ws.length;
    }),
  );
}

export function uniqueWordFraction(samples: string[]): number {
  return mean(
    samples.map((s) => {
      const ws = words(s);
      return ws.length === 0 ? 0 : new Set(ws).size / ws.length;
    }),
  );
}

/** n windows of `length` characters evenly spaced over `text` (the held-out reference). */
export function heldOutWindows(text: string, length: number, n: number): string[] {
  if (text.length < length)
    throw new Error(`text: ${text.length} held-out characters, fewer than one window of ${length}`);
  const stride = n > 1 ? Math.floor((text.length - length) / (n - 1)) : 0;
  return Array.from({ length: n }, (_, i) => text.slice(i * stride, i * stride + length));
}

export interface TextScores {
  valid_words5: number;
  valid_words6: number;
  unique_words: number;
  samples: number;
}

export class TextScorer {
  readonly dict5: Set<string>;
  readonly dict6: Set<string>;

  constructor(heldOut: string) {
    this.dict5 = dictionary(heldOut, 5);
    this.dict6 = dictionary(heldOut, 6);
  }

  score(samples: string[]): TextScores {
    return {
      valid_words5: validWordFraction(samples, this.dict5, 5),
      valid_words6: validWordFraction(samples, this.dict6, 6),
      unique_words: uniqueWordFraction(samples),
      samples: samples.length,
    };
  }
}
