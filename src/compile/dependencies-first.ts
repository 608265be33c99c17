/**
 * The order in which emitted runtime code is written: what a piece uses comes before it.
 *
 * @module
 */

/**
 * `roots` and everything they use, transitively, each once, every item after the items it
 * uses (a depth-first post-order; `roots` order breaks ties). Uses must not form a cycle.
 */
export function dependenciesFirst<T>(roots: Iterable<T>, uses: (item: T) => Iterable<T>): T[] {
  const done = new Set<T>();
  const out: T[] = [];
  const visit = (item: T): void => {
    if (done.has(item)) return;
    done.add(item);
    for (const use of uses(item)) visit(use);
    out.push(item);
  };
  for (const root of roots) visit(root);
  return out;
}
