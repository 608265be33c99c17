/**
 * Recursion in a form: the `$ref`s that lead back into a schema they are inside of (a back edge
 * of a depth-first walk over subschemas and references).
 *
 * @module
 */
import type { FormDocument } from "../compile/document.ts";
import type { SchemaNode } from "./schema-nodes.ts";

/** Each recursive `$ref`: the pointer into `s` of the schema holding it, and its target. */
export function recursiveRefs(
  document: FormDocument,
  nodes: ReadonlyArray<SchemaNode>,
): Array<{ at: string; target: string }> {
  const children = new Map<string, string[]>();
  for (const node of nodes) {
    if (node.parentAt === undefined) continue;
    const list = children.get(node.parentAt) ?? [];
    list.push(node.at);
    children.set(node.parentAt, list);
  }
  const hasRef = (at: string) => {
    const schema = document.node(at);
    return typeof schema === "object" && schema !== null && Object.hasOwn(schema, "$ref");
  };
  const state = new Map<string, "open" | "done">();
  const found: Array<{ at: string; target: string }> = [];
  const reported = new Set<string>();
  for (const start of nodes.map((node) => node.at)) {
    if (state.has(start)) continue;
    const stack: Array<{ at: string; next: string[] }> = [];
    const enter = (at: string) => {
      state.set(at, "open");
      const next = [...(children.get(at) ?? [])];
      if (hasRef(at)) next.push(`ref:${document.refTarget(at)}`);
      stack.push({ at, next });
    };
    enter(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const edge = top.next.shift();
      if (edge === undefined) {
        state.set(top.at, "done");
        stack.pop();
        continue;
      }
      const viaRef = edge.startsWith("ref:");
      const target = viaRef ? edge.slice(4) : edge;
      const seen = state.get(target);
      if (seen === "open" && viaRef && !reported.has(top.at)) {
        reported.add(top.at);
        found.push({ at: top.at, target });
      } else if (seen === undefined) enter(target);
    }
  }
  return found;
}
