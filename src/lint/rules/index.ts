/**
 * Every lint rule, in the order docs/lint.md lists them. Adding a rule: one file in this folder
 * (its `meta` with docs examples, and `check`), plus one entry here.
 *
 * @module
 */
import type { Rule } from "../rule.ts";
import { noActorIgnoredKeyword } from "./no-actor-ignored-keyword.ts";
import { noActorRejection } from "./no-actor-rejection.ts";
import { noExtensionKeyword } from "./no-extension-keyword.ts";
import { noRedosPattern } from "./no-redos-pattern.ts";
import { noUnconstrainedSchema } from "./no-unconstrained-schema.ts";
import { noUnsatisfiableSchema } from "./no-unsatisfiable-schema.ts";
import { noWideningKeyword } from "./no-widening-keyword.ts";
import { useActInstructions } from "./use-act-instructions.ts";
import { useAnchoredPattern } from "./use-anchored-pattern.ts";
import { useAnyOf } from "./use-any-of.ts";
import { useBoundedCost } from "./use-bounded-cost.ts";
import { useBoundedRecursion } from "./use-bounded-recursion.ts";
import { useClosedObject } from "./use-closed-object.ts";
import { useMaxItems } from "./use-max-items.ts";
import { useMaxLength } from "./use-max-length.ts";
import { useNumberBounds } from "./use-number-bounds.ts";
import { usePortableBounds } from "./use-portable-bounds.ts";
import { useValidExamples } from "./use-valid-examples.ts";
import { validForm } from "./valid-form.ts";
import { validSuppression } from "./valid-suppression.ts";

export const rules: ReadonlyArray<Rule> = [
  validForm,
  validSuppression,
  useClosedObject,
  useMaxLength,
  useMaxItems,
  useNumberBounds,
  usePortableBounds,
  useAnchoredPattern,
  noRedosPattern,
  noUnconstrainedSchema,
  noWideningKeyword,
  noExtensionKeyword,
  useAnyOf,
  useBoundedRecursion,
  noUnsatisfiableSchema,
  useValidExamples,
  useActInstructions,
  useBoundedCost,
  noActorRejection,
  noActorIgnoredKeyword,
] as ReadonlyArray<Rule>;
