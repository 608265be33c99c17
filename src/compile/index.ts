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
export { admittedDepth, compileForm, type CompileFormOptions } from "./compile-form.ts";
export { FormError, type FormErrorCode } from "./form-error.ts";
export { buildForms, FormFileError, type BuildFormsOptions, type BuiltForm } from "./build-forms.ts";
export { checkMetaSchema, type MetaSchemaViolation } from "./meta-schema.ts";
