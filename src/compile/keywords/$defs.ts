/**
 * `$defs`: reusable schemas; compiled only where a `$ref` reaches them.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectSchemaMap, map } from "../keyword-values.ts";

export const $defs: Keyword = { name: "$defs", instance: "any", check: expectSchemaMap, subschemas: map, inert: true };
