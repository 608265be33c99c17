/**
 * gpt-address/compile: the build-time entry (Node). Turns forms into standalone validator
 * modules and generated form modules.
 *
 * @example
 * ```ts
 * import { compileForm } from "gpt-address/compile";
 * const source = compileForm({ type: "string", maxLength: 20 }); // an ES module exporting validate()
 * ```
 * @module
 */

export { type BuildFormsOptions, type BuiltForm, buildForms, FormFileError } from "./build-forms.ts";
export {
  admittedBytes,
  admittedDepth,
  admittedItems,
  admittedMembers,
  admittedStringLength,
  type CompileFormOptions,
  compileForm,
} from "./compile-form.ts";
export { FormError, type FormErrorCode } from "./form-error.ts";
export { checkMetaSchema, type MetaSchemaViolation } from "./meta-schema.ts";
export type { FormSource, StandardInput, StandardJsonSchema } from "./standard-schema.ts";
export { type Unrolled, unroll } from "./unroll.ts";
