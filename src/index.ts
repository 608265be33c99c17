/**
 * gpt-address: publish a GPT address from a form compiled at build time.
 *
 * The runtime entry. It speaks Web-standard `Request`/`Response` only and imports no Node
 * API, so it runs on Cloudflare Workers, Deno Deploy, Vercel Edge, Node and Bun alike.
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { address } from "gpt-address";
 * import { form } from "./generated/page.js"; // built from forms/page.json by `npm run build`
 *
 * const app = new Hono();
 * app.route("/page", address({ form, act: (page) => ({ title: page.title }) }));
 * export default app;
 * ```
 * @module
 */
export {
  ACTOR_LOG_LENGTH,
  type ActContext,
  ActCounters,
  ActDeclined,
  type ActLogCode,
  type ActLogEntry,
  type AddressOptions,
  API_CATALOG_PATH,
  type Arrival,
  type ArrivalOptions,
  address,
  admitPin,
  admitRate,
  apiCatalog,
  type CompiledForm,
  DEFAULT_CACHE_CONTROL,
  DEFAULT_IPV6_PREFIX_LENGTH,
  DEFAULT_MAX_BYTES,
  type DeclinedStatus,
  type DiscoveredAddress,
  type DiscoveryAddress,
  type DiscoveryOptions,
  type Door,
  describeAddresses,
  discovery,
  emitLog,
  encodeConsequence,
  type FormValidate,
  formatActLog,
  forwardedClient,
  type HeaderList,
  LLMS_TXT_PATH,
  llmsTxt,
  type MessageRefusalCode,
  networkKey,
  type ParseLimits,
  parseAct,
  prepareArrival,
  type RateLimit,
  type RateLimitBinding,
  type RateLimiter,
  type RateLimitOutcome,
  type Refusal,
  type Refused,
  type Rejection,
  type RejectionCode,
  rateLimitKey,
  receiveAct,
  SERVER_CARD_PATH,
  sanitizeActor,
  satisfiesIfMatch,
  serverCard,
  type Verification,
  type VerificationLimitOptions,
  type VerificationLimits,
  type Verified,
  validateAct,
  verificationLimits,
  verifyAct,
  verifyBytes,
  workersRateLimiter,
} from "./address/index.ts";
export {
  BodyReadError,
  type BodyReadErrorCode,
  ContentTooLargeError,
  DEFAULT_BODY_DEADLINE_MS,
  type ReadBodyOptions,
  readBody,
  runtimeFetch,
} from "./body/index.ts";
export { JsonSyntaxError, type JsonSyntaxErrorCode } from "./json/json-syntax-error.ts";
export { DEFAULT_MAX_DEPTH, type ParseJsonOptions, parseJson } from "./json/parse.ts";
export {
  type AnyMcpAddress,
  DEFAULT_TOOLS_TTL_MS,
  LEGACY_VERSIONS,
  LOOPBACK_HOSTS,
  type McpAddress,
  type McpOptions,
  MODERN_VERSIONS,
  mcp,
  type ProtocolVersion,
  SUPPORTED_VERSIONS,
} from "./mcp/index.ts";
