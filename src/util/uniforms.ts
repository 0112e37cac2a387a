// A small seeded generator of uniform draws in [0, 1) (mulberry32), for choices that must not
// touch libtorch's generators: the infilling benchmark's holes (tasks/text/infill.ts) and the
// tests' fuzz. Deterministic across platforms (32-bit integer arithmetic).
export function uniforms(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
