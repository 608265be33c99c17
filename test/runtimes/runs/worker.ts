/**
 * A Worker instance of ./instance.ts over a Durable Object run store (bundled by
 * test/runtimes/runs-shared.test.ts and loaded into Miniflare twice: worker `a` owns the
 * `RunStoreObject` namespace, worker `b` binds it by `scriptName`). The variable `INSTANCE`
 * names the instance. The store is made per request: a Worker may not use one request's I/O
 * objects (a Durable Object stub) in another.
 */
import { DurableObjectRunStore, RunStoreObject } from "../../../src/run/durable-object.ts";
import { INSTANCE_LIMITS, runInstance } from "./instance.ts";

export { RunStoreObject };

/** The Workers runtime's own binding types (worker-configuration.d.ts): the store takes them as they are. */
interface Env {
  readonly INSTANCE: string;
  readonly RUNS: DurableObjectNamespace;
}

let handle: ReturnType<typeof runInstance> | undefined;

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    handle ??= runInstance(env.INSTANCE);
    const runs = new DurableObjectRunStore(env.RUNS, { limits: INSTANCE_LIMITS });
    return handle(request, runs, (promise) => ctx.waitUntil(promise));
  },
};
