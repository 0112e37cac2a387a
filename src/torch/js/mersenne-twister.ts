// The TypeScript backend's random engine: libtorch's CPU generator's 32-bit Mersenne Twister
// (at::mt19937), seeded from a number's low 32 bits as torch.manual_seed does, or by the reference
// init_by_array from every word of a bigint key of 2^32 or more, as the addon's EngineFromKey does
// (docs/design.md §4); its 32-bit draws, float32 and float64 uniforms, and its state as bytes.

const N = 624;
const M = 397;

/** A key's 32-bit words, least significant first (at most N: the engine's state). */
function keyWords(key: bigint): number[] {
  const words: number[] = [];
  for (let k = key; k > 0n; k >>= 32n) words.push(Number(k & 0xffffffffn));
  if (words.length > N) throw new RangeError(`seed: a key of at most ${N} 32-bit words`);
  return words;
}

export class MersenneTwister {
  state = new Uint32Array(N);
  index = N;
  /** A cached second normal of the scalar Box-Muller pair (libtorch's next_double_normal_sample). */
  nextNormal: number | null = null;

  /**
   * A number or an int64 bigint seeds as torch.manual_seed does (its low 32 bits); a bigint of
   * 2^32 or more is a key whose every 32-bit word counts (seedByKey).
   */
  constructor(seed: number | bigint) {
    if (typeof seed === 'bigint' && seed >= 2n ** 32n) {
      this.#seedByKey(keyWords(seed));
      return;
    }
    if (typeof seed === 'bigint' && seed < -(2n ** 63n))
      throw new TypeError('seed: expected an integer within int64');
    const s = BigInt.asUintN(32, typeof seed === 'bigint' ? seed : BigInt(Math.trunc(seed)));
    this.#seed(Number(s));
  }

  /** MT19937's init_genrand. */
  #seed(s: number): void {
    const mt = this.state;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++)
      mt[i] = (Math.imul(1812433253, mt[i - 1]! ^ (mt[i - 1]! >>> 30)) + i) >>> 0;
  }

  /**
   * MT19937's reference init_by_array (Matsumoto and Nishimura, 2002; Python's random.seed of a
   * big integer), as the addon's EngineFromKey.
   */
  #seedByKey(key: number[]): void {
    this.#seed(19650218);
    const mt = this.state;
    const n = key.length;
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, n); k > 0; k--) {
      const p = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(p, 1664525)) + key[j]! + j) >>> 0;
      if (++i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
      if (++j >= n) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const p = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(p, 1566083941)) - i) >>> 0;
      if (++i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  /** The next 32-bit draw. */
  next(): number {
    const mt = this.state;
    if (this.index >= N) {
      for (let k = 0; k < N; k++) {
        const y = (mt[k]! & 0x80000000) | (mt[(k + 1) % N]! & 0x7fffffff);
        mt[k] = mt[(k + M) % N]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** Uniform [0, 1) in float32's 24 bits. */
  float(): number {
    return (this.next() & 0xffffff) * 2 ** -24;
  }
  /** Uniform [0, 1) in float64's 53 bits (two draws, the first the high word). */
  double(): number {
    const hi = this.next() & 0x1fffff;
    const lo = this.next();
    return (hi * 2 ** 32 + lo) * 2 ** -53;
  }

  /** The state as bytes: 624 words, the index, and the cached normal (a flag and its float64). */
  bytes(): Uint8Array {
    const out = new Uint8Array(N * 4 + 4 + 1 + 8);
    const dv = new DataView(out.buffer);
    for (let i = 0; i < N; i++) dv.setUint32(i * 4, this.state[i]!, true);
    dv.setUint32(N * 4, this.index, true);
    dv.setUint8(N * 4 + 4, this.nextNormal === null ? 0 : 1);
    dv.setFloat64(N * 4 + 5, this.nextNormal ?? 0, true);
    return out;
  }
  setBytes(b: Uint8Array): void {
    if (b.length !== N * 4 + 13)
      throw new Error(
        `generator state of ${b.length} bytes is not the TypeScript backend's (${N * 4 + 13}); a state saved by libtorch resumes on the libtorch backend`,
      );
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    for (let i = 0; i < N; i++) this.state[i] = dv.getUint32(i * 4, true);
    this.index = dv.getUint32(N * 4, true);
    this.nextNormal = dv.getUint8(N * 4 + 4) ? dv.getFloat64(N * 4 + 5, true) : null;
  }
}
