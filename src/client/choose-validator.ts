/**
 * Which local validator a runtime can run: the compiled one (`form-validator.ts`, the very
 * compiler the addresses are built with) where code can be generated from text, else one that
 * needs no `eval` (`portable-validator.ts`: Workers, Vercel Edge).
 *
 * The compiled validator is loaded through an import the bundlers cannot follow, so that code
 * bundled for Workers never pulls in the compiler and its Node imports.
 *
 * @module
 */
import type { FormValidator } from "./form-validator.ts";
import { portableValidator } from "./portable-validator.ts";

/** `compiled`: the addresses' own compiler; `portable`: @cfworker/json-schema, no code generated; `custom`: given. */
export type ValidatorKind = "compiled" | "portable" | "custom";

/** `auto` (the compiled one where it can run), one kind, or a validator of your own. */
export type ValidatorChoice =
  | "auto"
  | "compiled"
  | "portable"
  | ((schema: unknown) => FormValidator | Promise<FormValidator>);

/** Whether this runtime lets code be generated from text (Workers do not). */
export function canGenerateCode(): boolean {
  try {
    return typeof new Function("return 1") === "function";
  } catch {
    return false;
  }
}

/** The compiled validator's module, beside this one (`.ts` in the sources, `.js` once built). */
const compiledModule = new URL(`./form-validator.${import.meta.url.endsWith(".ts") ? "ts" : "js"}`, import.meta.url)
  .href;

/**
 * A validator of `schema` as `choice` asks; `auto` falls back to the portable one where code
 * cannot be generated, or where the compiler cannot be loaded or cannot enforce the form (a
 * keyword outside its vocabulary: the address, which enforces it, then has the last word).
 *
 * @throws {FormError} `ref-cycle` or `fan-out` (with `auto` too): a form no validator can check.
 */
export async function chooseValidator(
  schema: unknown,
  choice: ValidatorChoice,
): Promise<{ validator: FormValidator; kind: ValidatorKind }> {
  if (typeof choice === "function") return { validator: await choice(schema), kind: "custom" };
  if (choice === "portable" || (choice === "auto" && !canGenerateCode())) {
    return { validator: portableValidator(schema), kind: "portable" };
  }
  try {
    const { compileValidator } = (await import(/* @vite-ignore */ compiledModule)) as {
      compileValidator(schema: unknown): Promise<FormValidator>;
    };
    return { validator: await compileValidator(schema), kind: "compiled" };
  } catch (error) {
    if (choice === "compiled") throw error;
    // A `$ref` that reaches itself without descending into the value, or `$ref`s that fan out
    // past the bound of one location's schemas: no validator can check it (the portable one
    // recurses until the stack overflows, or tries 2^n schemas), so the form is refused here.
    const code = (error as { code?: unknown } | null)?.code;
    if (code === "ref-cycle" || code === "fan-out") throw error;
    return { validator: portableValidator(schema), kind: "portable" };
  }
}
