/**
 * The example in public (issue 31, "Example hardening"), over real HTTP on loopback with the
 * SQLite file store: the page store's size cap, TTL and quota (413, 503 with `Retry-After`);
 * the example's own routes and 404s counted against the arrival budget, with ETag/304; the
 * counters only with a token; IPv6 clients keyed by their /64; the act's URL at the configured
 * public origin whatever `Host` says; errors of its own code answered with no stack or path.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import type { Server } from "node:http";
import { type IncomingHttpHeaders, request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { type ServerType, serve } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExampleApp, type ExampleOptions } from "../../examples/pages/app.ts";
import { ipv6PrefixLength } from "../../examples/pages/limits.ts";
import { bearerToken, sameSecret } from "../../examples/pages/metrics.ts";
import { publicOrigin } from "../../examples/pages/public-origin.ts";
import { memoryLimiter } from "../../examples/pages/rate-limiters.ts";
import { renderPage } from "../../examples/pages/render.ts";
import {
  MemoryPageStore,
  type PageLimits,
  type PageStore,
  pageLimits,
  utf8Length,
} from "../../examples/pages/store.ts";
import { SqlitePageStore } from "../../examples/pages/stores/sqlite.ts";
import { networkKey } from "../../src/address/network-key.ts";
import { validPage } from "../runtimes/bodies.ts";
import { exchange } from "../runtimes/raw-http.ts";

const PAGE_BYTES = utf8Length(renderPage(JSON.parse(validPage)));
const UUID = "00000000-0000-4000-8000-000000000000";

/** A running app on 127.0.0.1. */
interface Running {
  readonly port: number;
  /** One request from `from` (a loopback address, 127.0.0.1 unless given). */
  send(
    path: string,
    init?: { method?: string; body?: string; headers?: Record<string, string>; from?: string },
  ): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
}

async function start(app: Hono): Promise<Running> {
  const server = await new Promise<ServerType>((resolve) => {
    const started: ServerType = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(started));
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    send: (path, init = {}) =>
      new Promise((resolve, reject) => {
        const req = request(
          {
            host: "127.0.0.1",
            port,
            path,
            method: init.method ?? "GET",
            headers: { ...(init.body === undefined ? {} : { "content-type": "application/json" }), ...init.headers },
            localAddress: init.from ?? "127.0.0.1",
            agent: false,
          },
          (res) => {
            let body = "";
            res.setEncoding("utf8");
            res.on("data", (chunk: string) => (body += chunk));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
          },
        );
        req.on("error", reject);
        req.end(init.body);
      }),
    close: async () => {
      (server as Server).closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Arrivals of `points` a minute per client, keyed by the connection's address (and `X-Forwarded-For` from 127.0.0.1). */
function arrivalLimit(points: number, trusted: string[] = []): ExampleOptions["rateLimit"] {
  return {
    arrival: memoryLimiter(points),
    clientAddress: (c) => getConnInfo(c).remote.address,
    trustedProxies: trusted,
  };
}

describe("the page store holds its bounds (SQLite file)", () => {
  let scratch: string;
  let file: string;
  let database: DatabaseSync;
  let store: SqlitePageStore;
  let running: Running;
  let clock = Date.now();
  const limits: PageLimits = { maxPageBytes: 2 * PAGE_BYTES, ttlSeconds: 600, quotaBytes: 5 * PAGE_BYTES + 100 };

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "gpt-address-hardening-"));
    file = join(scratch, "pages.sqlite");
    database = new DatabaseSync(file);
    store = new SqlitePageStore(database, limits, () => clock);
    running = await start(createExampleApp(() => store));
  });
  afterAll(async () => {
    await running.close();
    database.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("publishing past the quota gets 503 with Retry-After (when the oldest page expires); the store stays under its quota", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await running.send("/page", { method: "POST", body: validPage })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 503, 503, 503]);
    const refused = await running.send("/page", { method: "POST", body: validPage });
    expect(refused.status).toBe(503);
    expect(refused.body).toBe("");
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(limits.ttlSeconds);
    expect(store.bytes).toBeLessThanOrEqual(limits.quotaBytes);
    const { total } = database.prepare("SELECT total(length(CAST(html AS BLOB))) AS total FROM pages").get() as {
      total: number;
    };
    expect(total).toBe(5 * PAGE_BYTES);
    expect(statSync(file).size).toBeLessThan(1024 * 1024);
  });

  it("a page expires after the TTL (404), and its room is published into again", async () => {
    const { id } = database.prepare("SELECT id FROM pages LIMIT 1").get() as { id: string };
    expect((await running.send(`/pages/${id}`)).status).toBe(200);
    clock += limits.ttlSeconds * 1000;
    expect((await running.send(`/pages/${id}`)).status).toBe(404);
    expect((await running.send("/page", { method: "POST", body: validPage })).status).toBe(200);
    expect(database.prepare("SELECT count(*) AS n FROM pages").get()).toEqual({ n: 1 });
    expect(store.bytes).toBe(PAGE_BYTES);
  });

  it("a valid page whose HTML is over the size cap gets 413 and nothing is stored; the act's body is within the address's limit", async () => {
    const page = JSON.parse(validPage) as { blocks: unknown[] };
    const big = JSON.stringify({ ...page, blocks: new Array(10).fill(page.blocks).flat() });
    const before = store.bytes;
    const answer = await running.send("/page", { method: "POST", body: big });
    expect(answer.status).toBe(413);
    expect(answer.body).toBe("");
    expect(store.bytes).toBe(before);
  });
});

describe("the example's own routes count against the arrival budget", () => {
  let running: Running;
  let id: string;

  beforeAll(async () => {
    const store = new MemoryPageStore();
    id = crypto.randomUUID();
    await store.put(id, renderPage(JSON.parse(validPage)));
    running = await start(createExampleApp(() => store, { rateLimit: arrivalLimit(5) }));
  });
  afterAll(() => running.close());

  it("S4 a read flood from one client gets 429 with Retry-After while another client still reads", async () => {
    const flood: number[] = [];
    for (let i = 0; i < 7; i++) flood.push((await running.send(`/pages/${id}`, { from: "127.0.0.2" })).status);
    expect(flood).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const refused = await running.send(`/pages/${id}`, { from: "127.0.0.2" });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.body).toBe("");
    // The index and a 404 are refused too: one budget.
    expect((await running.send("/", { from: "127.0.0.2" })).status).toBe(429);
    expect((await running.send("/nothing/here", { from: "127.0.0.2" })).status).toBe(429);
    // Another client reads.
    const other = await running.send(`/pages/${id}`, { from: "127.0.0.3" });
    expect(other.status).toBe(200);
    expect(other.body).toContain("<title>");
  });

  it("S4 the index and 404s spend the budget as pages do (4 of 5, then 429)", async () => {
    const from = "127.0.0.4";
    const seen = [];
    for (const path of ["/", "/nothing", `/pages/${UUID}`, "/", "/", "/nothing"]) {
      seen.push((await running.send(path, { from })).status);
    }
    expect(seen).toEqual([200, 404, 404, 200, 200, 429]);
    expect((await running.send("/", { from, method: "POST", body: "{}" })).status).toBe(429);
  });

  it("S4 a stored page and the index revalidate by ETag: 304 with no body, a 304 costs a request of the budget", async () => {
    const from = "127.0.0.5";
    const page = await running.send(`/pages/${id}`, { from });
    expect(page.headers.etag).toBe(`"${id}"`);
    const cached = await running.send(`/pages/${id}`, { from, headers: { "if-none-match": page.headers.etag! } });
    expect(cached.status).toBe(304);
    expect(cached.body).toBe("");
    expect(cached.headers.etag).toBe(`"${id}"`);
    const index = await running.send("/", { from, headers: { accept: "text/html" } });
    expect(index.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    const again = await running.send("/", {
      from,
      headers: { accept: "text/html", "if-none-match": index.headers.etag! },
    });
    expect(again.status).toBe(304);
    expect(again.body).toBe("");
    // The text index has a tag of its own; the HTML one does not match it.
    const text = await running.send("/", { from, headers: { "if-none-match": index.headers.etag! } });
    expect(text.status).toBe(200);
    expect(text.headers.etag).not.toBe(index.headers.etag);
    // Five requests so far, 304s included: the sixth is refused, cached or not.
    expect((await running.send(`/pages/${id}`, { from, headers: { "if-none-match": `"${id}"` } })).status).toBe(429);
  });
});

describe("IPv6 clients are keyed by their network", () => {
  it("S4 networkKey: IPv4 by address, IPv6 by its /64 (or the prefix given), IPv4-mapped as IPv4, anything else as it is", () => {
    expect(networkKey("203.0.113.7")).toBe("203.0.113.7");
    expect(networkKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(networkKey("2001:DB8:1:2::ffff")).toBe("2001:db8:1:2::/64");
    expect(networkKey("[2001:db8:1:2::1]")).toBe("2001:db8:1:2::/64");
    expect(networkKey("fe80::1%eth0")).toBe("fe80::/64");
    expect(networkKey("2001:db8:1:2:3:4:5:6", 48)).toBe("2001:db8:1::/48");
    expect(networkKey("2001:db8:1:2:3:4:5:6", 56)).toBe("2001:db8:1::/56");
    expect(networkKey("2001:db8:1:2ff:3:4:5:6", 56)).toBe("2001:db8:1:200::/56");
    expect(networkKey("2001:db8::1", 128)).toBe("2001:db8::1/128");
    expect(networkKey("::1")).toBe("::/64");
    expect(networkKey("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(networkKey("::ffff:c000:207")).toBe("192.0.2.7");
    expect(networkKey("1:0:0:1:0:0:0:1", 128)).toBe("1:0:0:1::1/128");
    for (const other of ["unknown", "1:2:3", "1::2::3", "2001:db8::g", "1:2:3:4:5:6:7:8:9", "1.2.3.4::1"]) {
      expect(networkKey(other), other).toBe(other);
    }
    expect(() => networkKey("::1", 129)).toThrow(RangeError);
  });

  it("IPV6_PREFIX_LENGTH: unset for 64, 0 to 128, anything else refused by name", () => {
    expect([undefined, ""].map(ipv6PrefixLength)).toEqual([64, 64]);
    expect(ipv6PrefixLength("48")).toBe(48);
    for (const bad of ["129", "-1", "64.0", "x"]) expect(() => ipv6PrefixLength(bad)).toThrow(/IPV6_PREFIX_LENGTH/);
  });

  it("S4 two addresses of one /64 share one budget; an address of the next /64 has its own (X-Forwarded-For from a trusted proxy)", async () => {
    const running = await start(
      createExampleApp(() => new MemoryPageStore(), { rateLimit: arrivalLimit(3, ["127.0.0.1"]) }),
    );
    try {
      const from = (address: string) => ({ headers: { "x-forwarded-for": address } });
      const seen = [];
      for (const address of ["2001:db8:1:2::a", "2001:db8:1:2:ffff::b", "2001:db8:1:2:1:2:3:4", "2001:db8:1:2::c"]) {
        seen.push((await running.send("/page", from(address))).status);
      }
      expect(seen).toEqual([200, 200, 200, 429]);
      expect((await running.send("/page", from("2001:db8:1:3::a"))).status).toBe(200);
      // An IPv4 client is its own address: 192.0.2.1 and 192.0.2.2 do not share.
      for (let i = 0; i < 3; i++) expect((await running.send("/page", from("192.0.2.1"))).status).toBe(200);
      expect((await running.send("/page", from("192.0.2.2"))).status).toBe(200);
    } finally {
      await running.close();
    }
  });
});

describe("/metrics only with the token", () => {
  let running: Running;
  let closed: Running;
  beforeAll(async () => {
    const store = new MemoryPageStore();
    running = await start(createExampleApp(() => store, { metricsToken: "s3cret-metrics-token" }));
    closed = await start(createExampleApp(() => store));
  });
  afterAll(async () => {
    await running.close();
    await closed.close();
  });

  it("without a token configured: 404, whatever is sent", async () => {
    expect((await closed.send("/metrics")).status).toBe(404);
    expect((await closed.send("/metrics", { headers: { authorization: "Bearer s3cret-metrics-token" } })).status).toBe(
      404,
    );
  });

  it("without the token or with another: 401 with WWW-Authenticate and no counters; with it: the counters", async () => {
    await running.send("/page", { method: "POST", body: "{}" });
    for (const authorization of [
      undefined,
      "Bearer wrong",
      "Basic czNjcmV0",
      "Bearer s3cret-metrics-toke",
      "s3cret-metrics-token",
    ]) {
      const answer = await running.send("/metrics", authorization === undefined ? {} : { headers: { authorization } });
      expect(answer.status, authorization).toBe(401);
      expect(answer.headers["www-authenticate"]).toBe('Bearer realm="metrics"');
      expect(answer.body).toBe("");
    }
    const answer = await running.send("/metrics", { headers: { authorization: "bearer s3cret-metrics-token" } });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(answer.body).toContain(
      'gpt_address_requests_total{address="page",door="http",status="204",code="schema"} 1',
    );
  });

  it("the token is compared whole, by digest (sameSecret), and read from a Bearer field only", async () => {
    expect(await sameSecret("abc", "abc")).toBe(true);
    expect(await sameSecret("abc", "abd")).toBe(false);
    expect(await sameSecret("", "abc")).toBe(false);
    expect(bearerToken("Bearer a.b-c_d~e+f/g==")).toBe("a.b-c_d~e+f/g==");
    expect(bearerToken("Bearer a b")).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });
});

describe("PUBLIC_ORIGIN: the URLs answered", () => {
  const published = async (running: Running, host: string) =>
    JSON.parse((await running.send("/page", { method: "POST", body: validPage, headers: { host } })).body) as {
      id: string;
      url: string;
    };

  it("reads an http(s) origin, and refuses a path, query, credentials or another scheme by name", () => {
    expect(publicOrigin(undefined)).toBeUndefined();
    expect(publicOrigin(" ")).toBeUndefined();
    expect(publicOrigin("https://GPT.example.com")).toBe("https://gpt.example.com");
    expect(publicOrigin("https://gpt.example.com:443/")).toBe("https://gpt.example.com");
    expect(publicOrigin("http://127.0.0.1:8788")).toBe("http://127.0.0.1:8788");
    for (const bad of [
      "gpt.example.com",
      "https://gpt.example.com/x",
      "https://a@gpt.example.com",
      "ftp://x",
      "https://x/?",
      "https://x/#a",
    ]) {
      expect(() => publicOrigin(bad), bad).toThrow(/PUBLIC_ORIGIN/);
    }
  });

  it("the act's url and the text index are at PUBLIC_ORIGIN whatever Host or the target say; control: without it, at the Host", async () => {
    const store = new MemoryPageStore();
    const configured = await start(createExampleApp(() => store, { publicOrigin: "https://gpt.example.com" }));
    const reflected = await start(createExampleApp(() => store));
    try {
      const { id, url } = await published(configured, "evil.example");
      expect(url).toBe(`https://gpt.example.com/pages/${id}`);
      const index = await configured.send("/", { headers: { host: "evil.example" } });
      expect(index.body).toContain("https://gpt.example.com/page\n");
      expect(index.body).not.toContain("evil");
      // An absolute-form target names another host: still the configured origin.
      const raw = await exchange(
        configured.port,
        [{ delayMs: 0, bytes: "GET http://evil.example/ HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n" }],
        "wait",
        2_000,
      );
      expect(raw.received).toContain("https://gpt.example.com/mcp");
      expect(raw.received).not.toContain("evil.example");
      // Control: nothing configured, the client's Host is what the URL says (documented).
      expect((await published(reflected, "evil.example")).url).toMatch(/^http:\/\/evil\.example\/pages\//);
    } finally {
      await configured.close();
      await reflected.close();
    }
  });
});

describe("errors of the example's own code carry no stack and no path", () => {
  /** A store whose reads fail with a message naming a local file. */
  const failing: PageStore = {
    put: async () => {},
    get: async () => {
      throw new Error("SQLITE_IOERR: disk I/O error at /home/operator/pages.sqlite");
    },
  };

  it("a failing store read is a 500 with no body; control: the 404 of an unknown id", async () => {
    const errors: unknown[] = [];
    const log = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    const running = await start(createExampleApp(() => failing));
    try {
      const answer = await running.send(`/pages/${UUID}`);
      expect(answer.status).toBe(500);
      expect(answer.body).toBe("");
      expect(answer.headers["content-length"]).toBe("0");
      expect(errors).toHaveLength(1); // the operator sees it, on the server's side
      const control = await start(createExampleApp(() => new MemoryPageStore()));
      expect((await control.send(`/pages/${UUID}`)).status).toBe(404);
      await control.close();
    } finally {
      console.error = log;
      await running.close();
    }
  });

  it("a request whose URL cannot be parsed (a malformed Host passed on, as workerd does) gets 400 at / and /page, no 500", async () => {
    const app = createExampleApp(() => new MemoryPageStore());
    const malformed = (method: string, path: string, body?: string) =>
      ({
        method,
        url: `http://[::1${path}`,
        headers: new Headers(body === undefined ? {} : { "content-type": "application/json" }),
        body: body === undefined ? null : new Blob([body]).stream(),
        signal: new AbortController().signal,
      }) as unknown as Request;
    const index = await app.fetch(malformed("GET", "/"));
    expect(index.status).toBe(400);
    expect(await index.text()).toBe("");
    const act = await app.fetch(malformed("POST", "/page", validPage));
    expect(act.status).toBe(400);
    expect(await act.text()).toBe("");
    // Control: configured, the origin does not come from the request.
    const configured = createExampleApp(() => new MemoryPageStore(), { publicOrigin: "https://gpt.example.com" });
    expect((await configured.fetch(malformed("GET", "/"))).status).toBe(200);
  });
});

describe("the page store's settings", () => {
  it("PAGE_MAX_BYTES, PAGES_TTL_SECONDS, PAGES_QUOTA_BYTES: defaults, values, and refusals by name", () => {
    expect(pageLimits(() => undefined)).toEqual({
      maxPageBytes: 262_144,
      ttlSeconds: 2_592_000,
      quotaBytes: 67_108_864,
    });
    const set = { PAGE_MAX_BYTES: "1000", PAGES_TTL_SECONDS: "60", PAGES_QUOTA_BYTES: "5000" } as Record<
      string,
      string
    >;
    expect(pageLimits((name) => set[name])).toEqual({ maxPageBytes: 1000, ttlSeconds: 60, quotaBytes: 5000 });
    expect(() => pageLimits((name) => ({ PAGES_TTL_SECONDS: "59" })[name])).toThrow(/PAGES_TTL_SECONDS/);
    expect(() => pageLimits((name) => ({ PAGE_MAX_BYTES: "1e3" })[name])).toThrow(/PAGE_MAX_BYTES/);
    expect(() => pageLimits((name) => ({ PAGES_QUOTA_BYTES: "1000" })[name])).toThrow(/at least PAGE_MAX_BYTES/);
  });

  it("utf8Length counts as TextEncoder does, lone surrogates as U+FFFD", () => {
    for (const text of ["", "abc", "é", "€", "𝄞", "a\ud800b", "\udc00", "x𝄞é€\ud83d"]) {
      expect(utf8Length(text), JSON.stringify(text)).toBe(new TextEncoder().encode(text).byteLength);
    }
  });
});
