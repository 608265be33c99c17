/**
 * Mulberry32, a small seeded generator (Tommy Ettinger's, public domain): the tests and the
 * bench that draw instances from a seed draw the same ones at every run.
 *
 * @param seed - any number; its low 32 bits choose the sequence.
 * @returns a function giving the next number in [0, 1).
 */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
