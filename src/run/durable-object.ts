/**
 * gpt-address/run/durable-object: a {@link RunStore} in a Durable Object on Cloudflare Workers:
 * every Worker (and every isolate of one) bound to the object's namespace reads, changes and
 * cancels the same runs.
 *
 * Two halves. {@link RunStoreObject} is the Durable Object class: export it from the Worker
 * that owns the namespace and declare it SQLite-backed (`new_sqlite_classes`); it keeps the runs
 * in its SQLite storage with the statements of the SQLite store (`./sql.ts`), each operation one
 * `transactionSync`. {@link DurableObjectRunStore} is the store the engine is given, in any Worker
 * with a binding to the namespace (`script_name` for a Worker that does not own it); it sends
 * each operation to the object as a JSON request on the object's `fetch`. A Durable Object runs
 * one request's synchronous code at a time, so a claim is an insert-if-absent and the quota a
 * count across every Worker.
 *
 * One object (named by `name`, default `"gpt-address-runs"`) holds a store's runs: every
 * operation goes to the one place the runs are, which Cloudflare locates near its first user.
 * One object serves on the order of a thousand small requests a second; give addresses stores
 * of their own `name` to spread more.
 *
 * Why a Durable Object and not a Workflow: a run is an act of the application, a function
 * given `{ signal, progress }` at the door, performed in the request's invocation (kept alive
 * by `ctx.waitUntil`, see `startRun`); what it needs of the platform is a consistent store for
 * its state, its cancel flag and its idempotency claim, which one object's SQLite storage is. A
 * Workflow would instead run the act as steps of a class of its own, started through a binding,
 * with no `AbortSignal` a cancel reaches (it terminates the instance) and no progress message
 * (only step results). An act that must outlast `waitUntil`'s 30 s belongs in a Workflow or a
 * Durable Object alarm that the application writes; its state can still be kept here.
 *
 * Types: this module declares the few shapes it uses of the Workers runtime
 * ({@link DurableObjectStateLike}, {@link RunStoreNamespace}) and imports nothing from
 * `cloudflare:workers`, so it type-checks with Web types alone.
 *
 * @example
 * ```ts
 * // wrangler.toml
 * // [[durable_objects.bindings]]
 * // name = "RUNS"
 * // class_name = "RunStoreObject"
 * // [[migrations]]
 * // tag = "runs-v1"
 * // new_sqlite_classes = ["RunStoreObject"]
 * import { DurableObjectRunStore, RunStoreObject } from "gpt-address/run/durable-object";
 * export { RunStoreObject };
 * const runs = (env: Env) => new DurableObjectRunStore(env.RUNS, { limits: { maxRuns: 10_000, ttlMs: 3_600_000 } });
 * ```
 * @see https://developers.cloudflare.com/durable-objects/api/sqlite-storage-api/
 * @module
 */
import {
  type CreateOutcome,
  DEFAULT_RUN_LIMITS,
  type IdempotencyClaim,
  type RunChange,
  type RunLimits,
  type RunRecord,
  type RunStore,
  refusalError,
} from "./run.ts";
import { type SqlDriver, SqlRuns, type SqlValue } from "./sql.ts";

/** The part of a Durable Object's `ctx.storage` used here: SQLite storage. */
export interface DurableObjectStorageLike {
  readonly sql: {
    exec(query: string, ...bindings: SqlValue[]): { toArray(): Record<string, SqlValue>[] };
  };
  transactionSync<T>(fn: () => T): T;
}

/** The part of a Durable Object's state (`ctx`) used here. */
export interface DurableObjectStateLike {
  readonly storage: DurableObjectStorageLike;
}

/** The part of a `DurableObjectNamespace` binding used here. */
export interface RunStoreNamespace<Id = unknown> {
  idFromName(name: string): Id;
  get(id: Id): { fetch(request: Request): Promise<Response> };
}

/** An operation sent to the object: the store's method, its arguments, and the caller's clock and limits. */
type Operation =
  | { op: "create"; run: RunRecord; claim?: IdempotencyClaim; limits: RunLimits; now: number }
  | { op: "get"; id: string; now: number }
  | { op: "update"; id: string; change: RunChange; now: number }
  | { op: "delete"; id: string };

function sqlDriver(storage: DurableObjectStorageLike): SqlDriver {
  return {
    exec: (sql) => void storage.sql.exec(sql),
    one: (sql, ...parameters) => storage.sql.exec(sql, ...parameters).toArray()[0],
    run: (sql, ...parameters) => void storage.sql.exec(sql, ...parameters),
    transaction: (fn) => storage.transactionSync(fn),
  };
}

/**
 * The Durable Object class that keeps runs (SQLite-backed: declare it in `new_sqlite_classes`).
 * It answers only the JSON operations of {@link DurableObjectRunStore}; it is never routed to
 * from the Internet.
 */
export class RunStoreObject {
  readonly #runs: SqlRuns;

  constructor(ctx: DurableObjectStateLike, _env?: unknown) {
    this.#runs = new SqlRuns(sqlDriver(ctx.storage));
  }

  async fetch(request: Request): Promise<Response> {
    const operation = (await request.json()) as Operation;
    try {
      switch (operation.op) {
        case "create":
          return Response.json({
            value: this.#runs.create(operation.run, operation.claim, operation.limits, operation.now),
          });
        case "get":
          return Response.json({ value: this.#runs.get(operation.id, operation.now) });
        case "update":
          return Response.json({ value: this.#runs.update(operation.id, operation.change, operation.now) });
        case "delete":
          this.#runs.delete(operation.id);
          return Response.json({ value: null });
        default:
          return new Response(null, { status: 400 });
      }
    } catch (error) {
      const { name, retryAfterSeconds } = error as { name?: unknown; retryAfterSeconds?: unknown };
      if (name === "RunQuotaExceeded" || name === "IdempotencyKeyReused") {
        return Response.json({ refusal: { error: name, retryAfterSeconds } });
      }
      throw error;
    }
  }
}

/**
 * The largest consequence kept ({@link RunStore.maxResultBytes}): 1 MiB, well under the 2 MB
 * row of a Durable Object's SQLite storage, which holds the run's JSON.
 */
export const DURABLE_OBJECT_MAX_RESULT_BYTES = 1_048_576;

/** Options of {@link DurableObjectRunStore}. */
export interface DurableObjectRunStoreOptions {
  /** The object's name in the namespace (`idFromName`). Default `"gpt-address-runs"`. */
  readonly name?: string;
  readonly limits?: RunLimits;
  /** The clock, in ms since the epoch, sent with each operation (tests set it). */
  readonly now?: () => number;
}

/**
 * Runs kept by a {@link RunStoreObject}, reached through its namespace binding; see the module.
 *
 * One store may serve every request of an isolate (keep it across requests, so that a cancel
 * through the isolate acting on a run aborts the act at once, see `cancelRun`): it takes a stub
 * of the object for each operation, since a stub is an I/O object of the request that made it and
 * workerd refuses its use from another ("Cannot perform I/O on behalf of a different request").
 */
export class DurableObjectRunStore implements RunStore {
  readonly limits: RunLimits;
  readonly maxResultBytes = DURABLE_OBJECT_MAX_RESULT_BYTES;
  readonly #namespace: RunStoreNamespace;
  readonly #id: unknown;
  readonly #now: () => number;

  /**
   * @param namespace - the binding of the {@link RunStoreObject} namespace (`env.RUNS`).
   * @throws {TypeError} when `namespace` is not a namespace binding (`undefined`: the binding is
   *   missing from the Worker's `[[durable_objects.bindings]]` in wrangler.toml).
   */
  constructor(namespace: RunStoreNamespace, options: DurableObjectRunStoreOptions = {}) {
    if (typeof (namespace as Partial<RunStoreNamespace> | undefined)?.idFromName !== "function") {
      throw new TypeError(
        `DurableObjectRunStore: the Durable Object namespace is ${namespace === undefined ? "undefined" : "not a namespace binding"}: bind the RunStoreObject class under [[durable_objects.bindings]] in wrangler.toml and pass that binding (env.<name>)`,
      );
    }
    this.limits = options.limits ?? DEFAULT_RUN_LIMITS;
    this.#now = options.now ?? Date.now;
    this.#namespace = namespace;
    this.#id = namespace.idFromName(options.name ?? "gpt-address-runs");
  }

  /**
   * @throws {RunQuotaExceeded}, {@link IdempotencyKeyReused} as the interface says.
   * @throws Error when the object answers otherwise than 200 (it failed).
   */
  async create(run: RunRecord, claim?: IdempotencyClaim): Promise<CreateOutcome> {
    return (await this.#send({
      op: "create",
      run,
      ...(claim === undefined ? {} : { claim }),
      limits: this.limits,
      now: this.#now(),
    })) as CreateOutcome;
  }

  async get(id: string): Promise<RunRecord | null> {
    return (await this.#send({ op: "get", id, now: this.#now() })) as RunRecord | null;
  }

  async update(id: string, change: RunChange): Promise<RunRecord | null> {
    return (await this.#send({ op: "update", id, change, now: this.#now() })) as RunRecord | null;
  }

  async delete(id: string): Promise<void> {
    await this.#send({ op: "delete", id });
  }

  async #send(operation: Operation): Promise<unknown> {
    const response = await this.#namespace.get(this.#id).fetch(
      new Request("https://run-store.invalid/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(operation),
      }),
    );
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`the run store object answered ${response.status}`);
    }
    const answer = (await response.json()) as { value?: unknown; refusal?: unknown };
    if (answer.refusal !== undefined) throw refusalError(answer.refusal) ?? new Error("the run store object refused");
    return answer.value;
  }
}
