/**
 * rate-limiter-flexible's base of its store limiters, which its index does not export (its
 * own stores import it by this path). Typed by the declaration the package ships.
 */
declare module "rate-limiter-flexible/lib/RateLimiterStoreAbstract.js" {
  import type { RateLimiterStoreAbstract } from "rate-limiter-flexible";

  const base: typeof RateLimiterStoreAbstract;
  export default base;
}
