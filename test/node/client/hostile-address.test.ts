/**
 * Hostile addresses on loopback, against every client entry point: the tool core of the
 * adapters (`contactAddress`, over `fetch`), the run follower (`followRun`), and the library's
 * act over `node:http` (`retrieve`, `postAct`, which the CLI and the MCP bridge use). Each
 * address is a `node:http` server started here whose answers cost the client: no end, a trickle,
 * 100 MB, a gzip bomb, a redirect to a third server, 1,000 header fields, a run that stays
 * `working`. The client must give up in bounded time and memory with an error naming the
 * address, and never reach the third server.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { nullAsAbsent } from "../../../src/client/absent.ts";
import { actWithBody } from "../../../src/client/act.ts";
import { AddressToolError, contactAddress } from "../../../src/client/address-tool.ts";
import { ArrivalError, retrieve } from "../../../src/client/arrival.ts";
import { ExchangeError } from "../../../src/client/http.ts";
import { followRun, RunReadError } from "../../../src/client/run.ts";
import { FormError } from "../../../src/compile/form-error.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A loopback server answering each path with its handler; `hits` counts the requests per path. */
async function serve(routes: Record<string, Handler>): Promise<{
  url: string;
  hits: string[];
  close(): Promise<void>;
}> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    hits.push(`${req.method} ${path}`);
    const handler = routes[`${req.method} ${path}`] ?? routes[path];
    if (handler === undefined) return void res.writeHead(404).end();
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const FORM = {
  type: "object",
  additionalProperties: false,
  required: ["name"],
  properties: { name: { type: "string", maxLength: 20 } },
};
const ARRIVAL = JSON.stringify({ p: "Name something.", m: [], s: FORM });
const arrival: Handler = (_req, res) =>
  void res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" }).end(ARRIVAL);

/** `${prefix}0` is `bottom`; each level above is an `anyOf` whose two branches both lead to the level below. */
const fan = (prefix: string, bottom: unknown): Record<string, unknown> =>
  Object.fromEntries(
    Array.from({ length: 40 }, (_, i) => [
      `${prefix}${i}`,
      i === 0
        ? bottom
        : { anyOf: [{ $ref: `#/$defs/${prefix}${i - 1}` }, { allOf: [{ $ref: `#/$defs/${prefix}${i - 1}` }] }] },
    ]),
  );

/** Publishes `s` at `/` as an arrival document (`{p: "", m: [], s}`). */
const publishing =
  (s: unknown): Handler =>
  (_req, res) =>
    void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ p: "", m: [], s }));

/** Writes a 64 KiB chunk of spaces whenever the socket drains, until the client goes away. */
const endless =
  (head: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(200, { "content-type": "application/json", ...head });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
    };
    res.on("drain", pump);
    pump();
  };

/** One byte every 100 ms, for ever. */
const trickle: Handler = (_req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  const timer = setInterval(() => res.write(" "), 100);
  res.on("close", () => clearInterval(timer));
};

/** A head that declares a huge body, then nothing. */
const promises: Handler = (_req, res) => {
  res.writeHead(200, { "content-type": "application/json", "content-length": String(2 ** 40) });
  res.flushHeaders();
};

/** 64 MiB of spaces gzipped (64 KiB on the wire), then the arrival. */
let bomb: Buffer;
const gzipBomb: Handler = (_req, res) =>
  void res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(bomb);

/** The promise's rejection (`undefined` when it resolved) and how long it took, in ms. */
const elapsed = async (promise: Promise<unknown>): Promise<{ error: unknown; ms: number }> => {
  const start = performance.now();
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  return { error, ms: performance.now() - start };
};

describe("a hostile address against the tool core (fetch)", () => {
  let third: Awaited<ReturnType<typeof serve>>;
  let hostile: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    bomb = gzipSync(Buffer.concat([Buffer.alloc(64 * 1024 * 1024, 0x20), Buffer.from(ARRIVAL)]), { level: 9 });
    third = await serve({ "/steal": arrival, "POST /steal": (_req, res) => void res.writeHead(200).end("{}") });
    hostile = await serve({
      "/endless": endless(),
      "/trickle": trickle,
      "/promises": promises,
      "/bomb": gzipBomb,
      "/redirect": (_req, res) => void res.writeHead(302, { location: `${third.url}/steal` }).end(),
      "/loop": (_req, res) => void res.writeHead(302, { location: "/loop" }).end(),
      "/file": (_req, res) => void res.writeHead(302, { location: "file:///etc/passwd" }).end(),
      "/act-endless": arrival,
      "POST /act-endless": endless(),
      "/act-redirect": arrival,
      "POST /act-redirect": (_req, res) => void res.writeHead(307, { location: `${third.url}/steal` }).end(),
      "/act-bomb": arrival,
      "POST /act-bomb": gzipBomb,
    });
  });
  afterAll(async () => {
    await hostile?.close();
    await third?.close();
  });
  afterEach(() => {
    expect(third.hits).toEqual([]);
  });

  const options = { cache: new Map(), timeoutMs: 1_000, maxResponseBytes: 1024 * 1024 };

  it.each([
    ["an endless body", "/endless"],
    ["a trickle of one byte per 100 ms", "/trickle"],
    ["a Content-Length of 1 TiB and no body", "/promises"],
    ["a gzip bomb (64 MiB from 64 KiB)", "/bomb"],
  ])("GET answered with %s: unreachable within the time limit, naming the address", async (_, path) => {
    const { error, ms } = await elapsed(contactAddress(`${hostile.url}${path}`, { ...options, cache: new Map() }));
    expect(error).toBeInstanceOf(AddressToolError);
    expect((error as AddressToolError).code).toBe("unreachable");
    expect((error as Error).message).toContain(`${hostile.url}${path}`);
    expect(ms).toBeLessThan(5_000);
  });

  it.each([
    ["another host", "/redirect"],
    ["itself, for ever", "/loop"],
    ["a file: URL", "/file"],
  ])("GET redirected to %s: not followed, the 302 is the answer (A1)", async (_, path) => {
    const { error } = await elapsed(contactAddress(`${hostile.url}${path}`, { ...options, cache: new Map() }));
    expect(error).toBeInstanceOf(ArrivalError);
    expect((error as Error).message).toBe(`GET ${hostile.url}${path} answered 302, not 200`);
    expect(hostile.hits.filter((hit) => hit === `GET ${path}`)).toHaveLength(1);
  });

  it("a 200 to the act whose body never ends, or a gzip bomb: a tool error in bounded time", async () => {
    for (const path of ["/act-endless", "/act-bomb"]) {
      const tool = await contactAddress(`${hostile.url}${path}`, { ...options, cache: new Map() });
      const { error, ms } = await elapsed(tool.act({ name: "x" }));
      expect(error).toBeInstanceOf(AddressToolError);
      expect((error as AddressToolError).code).toBe("unreachable");
      expect(ms).toBeLessThan(5_000);
    }
  });

  it("a 307 to the act pointing at another host: the value is not sent there", async () => {
    const tool = await contactAddress(`${hostile.url}/act-redirect`, { ...options, cache: new Map() });
    const { error } = await elapsed(tool.act({ name: "x" }));
    expect(error).toBeInstanceOf(AddressToolError);
    expect((error as AddressToolError).status).toBe(307);
  });
});

describe("a hostile run (followRun over fetch, as every client uses it)", () => {
  let third: Awaited<ReturnType<typeof serve>>;
  let hostile: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    third = await serve({});
    hostile = await serve({
      "/a/runs/redirect": (_req, res) => void res.writeHead(302, { location: `${third.url}/a/runs/redirect` }).end(),
      "/a/runs/endless": endless(),
      "/a/runs/trickle": trickle,
    });
  });
  afterAll(async () => {
    await hostile?.close();
    await third?.close();
  });

  it("a run read redirected to another host: not followed", async () => {
    const { error } = await elapsed(followRun(`${hostile.url}/a/runs/redirect`, { address: `${hostile.url}/a` }));
    expect(error).toBeInstanceOf(RunReadError);
    expect(third.hits).toEqual([]);
  });

  it.each([
    ["never ends", "endless"],
    ["trickles", "trickle"],
  ])("a run read whose body %s: given up in bounded time", async (_, id) => {
    const { error, ms } = await elapsed(
      followRun(`${hostile.url}/a/runs/${id}`, { address: `${hostile.url}/a`, readTimeoutMs: 500 }),
    );
    expect(error).toBeInstanceOf(RunReadError);
    expect(ms).toBeLessThan(15_000);
  });

  it("a run read whose body trickles, with garbage collected every 50 ms while it is read: still given up (the abort is held, not left to weak references)", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const collecting = setInterval(gc, 50);
    try {
      const { error, ms } = await elapsed(
        Promise.race([
          followRun(`${hostile.url}/a/runs/trickle`, { address: `${hostile.url}/a`, readTimeoutMs: 500 }),
          new Promise((_, reject) => setTimeout(() => reject(new Error("still reading after 10 s")), 10_000)),
        ]),
      );
      expect(error).toBeInstanceOf(RunReadError);
      expect(ms).toBeLessThan(10_000);
    } finally {
      clearInterval(collecting);
    }
  });
});

describe("a hostile address against the act over node:http (CLI, MCP bridge)", () => {
  let hostile: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    hostile = await serve({
      "/headers": (_req, res) => {
        for (let i = 0; i < 1_000; i++) res.setHeader(`x-h${i}`, "v".repeat(20));
        res.writeHead(200, { "content-type": "application/json" }).end(ARRIVAL);
      },
      "/redirect": (_req, res) => void res.writeHead(302, { location: "http://127.0.0.1:9/" }).end(),
      "/bomb": gzipBomb,
      "/endless": endless(),
    });
  });
  afterAll(async () => {
    await hostile?.close();
  });

  it("1,000 header fields: a network error, not a crash", async () => {
    const { error } = await elapsed(retrieve(`${hostile.url}/headers`));
    expect(error).toBeInstanceOf(ExchangeError);
  });

  it("a redirect is the answer (A1), not followed", async () => {
    const { error } = await elapsed(actWithBody(`${hostile.url}/redirect`, new TextEncoder().encode("{}")));
    expect(error).toBeInstanceOf(ArrivalError);
  });

  it("a gzip bomb is not decoded: the compressed bytes are no JSON (A2 names it)", async () => {
    const { error } = await elapsed(retrieve(`${hostile.url}/bomb`));
    expect(error).toBeInstanceOf(ArrivalError);
  });
});

describe("a form whose $refs fan out (each level names the one below twice, 40 levels)", () => {
  const form = {
    type: "object",
    $defs: {
      ...fan("s", { type: "string" }),
      ...fan("o", { type: "object", properties: { c: { type: "integer" }, d: { type: "string" } } }),
    },
    properties: { a: { $ref: "#/$defs/s39" }, b: { $ref: "#/$defs/o39" } },
  };

  it("reading null as absent (OpenAI's projection) visits each schema once per value: linear, not 2^40", () => {
    const start = performance.now();
    const read = nullAsAbsent({ a: null, b: { c: 1, d: null } }, form);
    expect(read).toEqual({ value: { b: { c: 1 } }, changed: true });
    expect(performance.now() - start).toBeLessThan(1_000);
  });
});

describe("a form whose $refs fan out past the bound of one location's schemas (2^40)", () => {
  let hostile: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    const s = { type: "object", $defs: fan("s", { type: "string" }), properties: { a: { $ref: "#/$defs/s39" } } };
    hostile = await serve({ "/": publishing(s) });
  });
  afterAll(async () => {
    await hostile?.close();
  });

  it("is refused at contact (fan-out, with the schema where it passes the bound), not left to a validator that tries 2^40 schemas on a wrong value", async () => {
    const { error, ms } = await elapsed(contactAddress(hostile.url, { cache: new Map() }));
    expect(error).toBeInstanceOf(FormError);
    expect((error as FormError).code).toBe("fan-out");
    expect((error as FormError).pointer).toBe("/$defs/s15");
    expect(ms).toBeLessThan(5_000);
  });
});

describe("a form whose $ref names itself without descending into the value", () => {
  let hostile: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    const s = { type: "object", $defs: { x: { $ref: "#/$defs/x" } }, properties: { a: { $ref: "#/$defs/x" } } };
    hostile = await serve({ "/": publishing(s) });
  });
  afterAll(async () => {
    await hostile?.close();
  });

  it("is refused at contact with the pointer and the rule, not left to a validator that overflows its stack", async () => {
    const { error } = await elapsed(contactAddress(hostile.url, { cache: new Map() }));
    expect(error).toBeInstanceOf(FormError);
    expect((error as FormError).code).toBe("ref-cycle");
    expect((error as FormError).pointer).toBe("/$defs/x/$ref");
  });
});
