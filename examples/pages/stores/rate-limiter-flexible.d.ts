/**
 * Modules of rate-limiter-flexible imported by path rather than from its index, typed by the
 * declarations the package ships: the base of its store limiters (which the index does not
 * export; its own stores import it by this path), and the memory limiter and its result, which
 * an edge bundle imports alone (the index also loads its cluster limiter, which needs
 * `node:cluster`). tsc reads this file through tsconfig.json's `include`; Deno, which reads no
 * tsconfig, through the `/// <reference types>` of each file importing these paths (without it
 * `deno check` types them from the JavaScript and finds the Deno KV limiter wrong).
 */
declare module "rate-limiter-flexible/lib/RateLimiterStoreAbstract.js" {
  import type { RateLimiterStoreAbstract } from "rate-limiter-flexible";

  const base: typeof RateLimiterStoreAbstract;
  export default base;
}

declare module "rate-limiter-flexible/lib/RateLimiterMemory.js" {
  import type { RateLimiterMemory } from "rate-limiter-flexible";

  const memory: typeof RateLimiterMemory;
  export default memory;
}

declare module "rate-limiter-flexible/lib/RateLimiterRes.js" {
  import type { RateLimiterRes } from "rate-limiter-flexible";

  const result: typeof RateLimiterRes;
  export default result;
}
