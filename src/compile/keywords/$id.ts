/**
 * `$id`: sets the base URI for in-document `$ref` resolution (resolved by the document walk).
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectString } from "../keyword-values.ts";

export const $id: Keyword = { name: "$id", instance: "any", check: expectString, inert: true, identifier: true };
