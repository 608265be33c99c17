/**
 * Reporting: what a door tells its operator about each request, never its actor (R2). Both
 * doors build one {@link Reporter} at construction and call it from their answer tables, so a
 * log entry and a rejection mean the same through either door.
 *
 * @module
 */
import type { ActLogCode, ActLogEntry, Door } from "./act-log.ts";
import { emitLog } from "./admission.ts";
import type { Rejection, RejectionCode } from "./rejection.ts";

/** The hooks a door was given, with the name its error messages use. */
export interface ReporterHooks {
  /** One structured entry per request answered (see `AddressOptions.onLog`). */
  readonly onLog?: ((entry: ActLogEntry) => void) | undefined;
  /** One call per rejected act (see `AddressOptions.onReject`). */
  readonly onReject?: ((rejection: Rejection) => void) | undefined;
}

/** Reports requests of one door; built once by {@link reporter}. Never throws. */
export interface Reporter {
  /**
   * Writes one log entry for `request`, answered with `status`.
   *
   * @param started - when the request arrived, ms since the epoch (`Date.now()` at entry).
   * @param address - the form's name (or the MCP endpoint's name for a message before any tool).
   * @param code - why it was not acted on, `null` when it was (or an arrival was answered).
   * @param bytes - the body's bytes when it was read, else `null`.
   */
  log(
    request: Request,
    started: number,
    address: string,
    status: number,
    code: ActLogCode | null,
    bytes: number | null,
  ): void;
  /** Hands one rejected act to `onReject`. */
  reject(request: Request, code: RejectionCode, reason: string): void;
}

/**
 * Builds the reporter of one door. Without a hook its method does nothing, and no field of the
 * request is read. A hook that throws is reported with `console.error` and never changes the
 * answer.
 *
 * @param door - `"http"` or `"mcp"`, the entries' `door`.
 * @param who - the door as its error messages name it (`the address "page"`, `the MCP endpoint`).
 * @param hooks - {@link ReporterHooks}.
 */
export function reporter(door: Door, who: string, hooks: ReporterHooks): Reporter {
  const { onLog, onReject } = hooks;
  return {
    log:
      onLog === undefined
        ? () => {}
        : (request, started, address, status, code, bytes) =>
            emitLog(onLog, {
              started,
              address,
              door,
              method: request.method,
              status,
              code,
              bytes,
              actor: request.headers.get("gpt-actor"),
            }),
    reject:
      onReject === undefined
        ? () => {}
        : (request, code, reason) => {
            try {
              onReject({ code, reason, request });
            } catch (error) {
              console.error(`gpt-address: onReject of ${who} threw`, error);
            }
          },
  };
}
