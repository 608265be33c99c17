/**
 * Type tests of JSON values, as generated code.
 *
 * @module
 */
import { type Code, js } from "../safe-format.ts";

/** The seven JSON Schema type names. */
export const typeNames = ["null", "boolean", "object", "array", "number", "string", "integer"] as const;
export type TypeName = (typeof typeNames)[number];

/** Is `data` of the JSON Schema type `name`? (`integer`: a number with zero fractional part.) */
export function typeTest(name: TypeName, data: Code): Code {
  switch (name) {
    case "null":
      return js`${data} === null`;
    case "boolean":
      return js`typeof ${data} === "boolean"`;
    case "object":
      return js`typeof ${data} === "object" && ${data} !== null && !Array.isArray(${data})`;
    case "array":
      return js`Array.isArray(${data})`;
    case "number":
      return js`typeof ${data} === "number"`;
    case "string":
      return js`typeof ${data} === "string"`;
    case "integer":
      return js`Number.isInteger(${data})`;
  }
}
