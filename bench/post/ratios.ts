/**
 * The figures of the benches that alternate servers in rounds: medians of per-round ratios and
 * differences, each with its [min–max] over rounds, and a goal marked met or not.
 *
 * @module
 */

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** Per round, `a[r] ÷ (b[r] · scale)`: the two ran back to back in that round. */
export const paired = (a: readonly number[], b: readonly number[], scale = 1): number[] =>
  a.map((x, r) => x / (b[r]! * scale));

const range = (xs: readonly number[], f: (x: number) => string) => `[${f(Math.min(...xs))}–${f(Math.max(...xs))}]`;

/** A ratio cell: the median of per-round ratios, its goal (at least `goal`), and the range over rounds. */
export function cell(xs: readonly number[], goal: number | null): string {
  if (xs.length === 0 || xs.some(Number.isNaN)) return "n/a";
  const m = median(xs);
  const verdict = goal === null ? "" : m >= goal ? ` (≥ ${goal} met)` : ` (≥ ${goal} NOT met)`;
  return `${m.toFixed(2)}${verdict} ${range(xs, (x) => x.toFixed(2))}`;
}

/** A figure with no goal: the median of `xs` and the range over rounds, `unit` after each. */
export function figure(xs: readonly number[], digits = 2, unit = ""): string {
  if (xs.length === 0 || xs.some(Number.isNaN)) return "n/a";
  const f = (x: number) => `${x.toFixed(digits)}${unit}`;
  return `${f(median(xs))} ${range(xs, f)}`;
}

/** A cell whose goal is an upper bound: the median of `xs`, at most `goal`, and the range; `unit` after each figure. */
export function cellAtMost(xs: readonly number[], goal: number, digits = 2, unit = ""): string {
  if (xs.length === 0 || xs.some(Number.isNaN)) return "n/a";
  const m = median(xs);
  const f = (x: number) => `${x.toFixed(digits)}${unit}`;
  return `${f(m)} (≤ ${goal}${unit} ${m <= goal ? "met" : "NOT met"}) ${range(xs, f)}`;
}

/**
 * The median over rounds of `a[r] − b[r]` with its [min–max], to `digits` decimals: the two ran
 * back to back in each round.
 */
export function minus(a: readonly number[], b: readonly number[], digits = 0): string {
  const d = a.map((x, r) => x - b[r]!);
  const f = (x: number) => x.toFixed(digits);
  return `${f(median(d))} ${range(d, f)}`;
}
