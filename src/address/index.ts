/**
 * The address: `address()` (the HTTP door), and the door-independent core it wires to Hono:
 * arrival (`prepareArrival`), verification (`verifyAct` and its stages) and the act's
 * consequence (`encodeConsequence`).
 *
 * @module
 */
export { ActDeclined, type DeclinedStatus, encodeConsequence } from "./act.ts";
export {
  ACTOR_LOG_LENGTH,
  ActCounters,
  type ActLogCode,
  type ActLogEntry,
  type Door,
  formatActLog,
  type MessageRefusalCode,
  sanitizeActor,
} from "./act-log.ts";
export { type ActContext, type AddressOptions, address } from "./address.ts";
export { admitPin, admitRate, emitLog, type Refused } from "./admission.ts";
export {
  type Arrival,
  type ArrivalOptions,
  DEFAULT_CACHE_CONTROL,
  type HeaderList,
  prepareArrival,
} from "./arrival.ts";
export {
  API_CATALOG_PATH,
  apiCatalog,
  type DiscoveredAddress,
  type DiscoveryAddress,
  type DiscoveryOptions,
  describeAddresses,
  discovery,
  LLMS_TXT_PATH,
  llmsTxt,
  SERVER_CARD_PATH,
  serverCard,
} from "./discovery.ts";
export type { CompiledForm, FormValidate } from "./form.ts";
export { DEFAULT_IPV6_PREFIX_LENGTH, networkKey } from "./network-key.ts";
export { satisfiesIfMatch } from "./precondition.ts";
export {
  forwardedClient,
  type RateLimit,
  type RateLimitBinding,
  type RateLimiter,
  type RateLimitOutcome,
  rateLimitKey,
  workersRateLimiter,
} from "./rate-limit.ts";
export type { Rejection, RejectionCode } from "./rejection.ts";
export {
  DEFAULT_MAX_BYTES,
  type ParseLimits,
  parseAct,
  type Refusal,
  receiveAct,
  type Verification,
  type VerificationLimitOptions,
  type VerificationLimits,
  type Verified,
  validateAct,
  verificationLimits,
  verifyAct,
  verifyBytes,
} from "./verification.ts";
