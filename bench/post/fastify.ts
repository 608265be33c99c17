/**
 * `fastify-ajv`, a peer of the POST bench on Node: Fastify with the form as the route's body
 * schema, validated by Fastify's own ajv compiler, made strict. Fastify's defaults would strip
 * unknown members (`removeAdditional: true`) and coerce types (`coerceTypes: "array"`), so an
 * act the form refuses could pass; here `removeAdditional: false`, `coerceTypes: false` and
 * `allErrors: false` (Fastify's default too), so it accepts what the form accepts.
 *
 * Fastify's compiler is ajv's draft-07 class, which refuses a `$schema` of 2020-12; the form is
 * given without it (its other keywords, `$defs` included, mean the same in both drafts). Fastify
 * parses the body with secure-json-parse (`__proto__` and `constructor.prototype` refused, a
 * duplicate name keeps the last value) under its default `bodyLimit` of 1 MiB, answers a valid
 * act with 200 `{"ok":true}` and an invalid one with 400.
 *
 * @module
 */
import Fastify, { type FastifyInstance } from "fastify";
import type { CompiledForm } from "../../src/address/form.ts";

/** The ajv options set for `fastify-ajv`, over Fastify's defaults (also printed by the bench). */
export const FASTIFY_AJV_OPTIONS = { removeAdditional: false, coerceTypes: false, allErrors: false } as const;

/** The form's `s` as Fastify's draft-07 ajv takes it: without `$schema`. */
export function fastifySchema(form: Pick<CompiledForm, "arrival">): object {
  const { s } = JSON.parse(form.arrival) as { s: Record<string, unknown> };
  const { $schema: _, ...schema } = s;
  return schema;
}

/** The Fastify app of `fastify-ajv` for `form`, with a POST route at `/page`. */
export function fastifyApp(form: Pick<CompiledForm, "arrival">): FastifyInstance {
  const app = Fastify({ ajv: { customOptions: FASTIFY_AJV_OPTIONS } });
  app.post("/page", { schema: { body: fastifySchema(form) } }, async () => ({ ok: true }));
  return app;
}
