/**
 * `use-bounded-recursion`: no `$ref` leads back to a schema it is inside of. A recursive
 * definition admits values of any depth, so the depth becomes the actor's choice; unroll it
 * (`gpt-address unroll`) so that the last level omits the recursive alternative.
 *
 * @module
 */
import { childPointer } from "../../compile/pointer.ts";
import { recursiveRefs } from "../recursion.ts";
import { defineRule } from "../rule.ts";

export const useBoundedRecursion = defineRule({
  meta: {
    id: "use-bounded-recursion",
    severity: "error",
    requirement: "F4",
    section: 'draft "Bounded Recursion"',
    description: "Recursion is bounded by the schema itself.",
    messages: {
      recursive:
        "this $ref recurses into {target}: no depth bound follows from the form; unroll it with gpt-address unroll",
    },
    docs: {
      invalid: [
        {
          schema: {
            $defs: {
              node: {
                type: "array",
                maxItems: 2,
                items: { anyOf: [{ type: "null" }, { $ref: "#/$defs/node" }] },
              },
            },
            $ref: "#/$defs/node",
          },
          pointer: "/s/$defs/node/items/anyOf/1/$ref",
        },
      ],
      valid: [
        {
          schema: {
            $defs: { leaf: { type: "null" }, node: { type: "array", maxItems: 2, items: { $ref: "#/$defs/leaf" } } },
            $ref: "#/$defs/node",
          },
        },
      ],
    },
  },
  check(context) {
    for (const { at, target } of recursiveRefs(context.document, context.nodes)) {
      context.report({
        messageId: "recursive",
        pointer: childPointer(`/s${at}`, "$ref"),
        data: { target: target === "" ? "the root" : target },
      });
    }
  },
});
