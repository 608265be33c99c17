/**
 * The stages of an act, named once for both doors. Every act, a POST to an address or an MCP
 * `tools/call`, passes the same stages in the same order; a door is the wiring of its wire
 * format around them (how it reads the request, how it writes each outcome), and nothing else.
 *
 * ```text
 *  request ─▶ admit ─▶ receive ─▶ verify ─▶ perform ─▶ answer
 *               │         │          │         │          │
 *          admitAct   receiveAct  verifyBytes  performAct   the door's answer table
 *          (rate,     (bytes      (strict      (the act:   (http-answers.ts,
 *           pin)       under       parser,      200 JSON,   mcp/answers.ts),
 *                      maxBytes)   validator)   or a run)   which also reports
 * ```
 *
 * - **admit** (`admission.ts`): the client's rate limit, then the form's pin (`If-Match`), before
 *   any byte of the body is read; a refusal is a value (429 with `Retry-After`, 412).
 * - **receive** (`verification.ts`, `receiveAct`): the body as bytes under `maxBytes` (V1); a
 *   body refused before reading is given up with `discardAct`.
 * - **verify** (`verification.ts`, `verifyBytes`): the strict parser (V2), then the form's
 *   generated validator (V3, V4). Nothing after this stage sees a value that failed it: an
 *   invalid act is answered 204 (R2) and never becomes a run.
 * - **perform** (`perform.ts`): the act, called with the valid value; its consequence as JSON
 *   text (R1), or why it was not performed (declined, fault).
 * - **answer** (one table per wire format, built at construction): every outcome above as the
 *   door's answer, and its report (`report.ts`: `onLog`, `onReject`).
 *
 * Each stage returns a value (a refusal, bytes, a value, a consequence); only a fault (a bug)
 * throws, and each door catches it once, at its edge, answering 500 without acting. No stage
 * knows a wire format (no 204, no JSON-RPC), and none is Hono middleware: a door stays one
 * handler, and a stage costs a call.
 *
 * @module
 */

/** The stages of an act, in order (see the drawing above). */
export type Stage = "admit" | "receive" | "verify" | "perform" | "answer";
