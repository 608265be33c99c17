/**
 * `check`: black-box conformance of any address over HTTP — the draft's MUST and SHOULD points
 * that an outside client can see. Read-only probes (GET, HEAD, conditional GET, negotiation)
 * and refusal probes (bodies a conforming address must refuse, built so that a lenient address
 * would act on them) always run; the one act with a side effect (the form's own example) only
 * with `act: true`. That act asks for a run (`Prefer: respond-async`): an address that offers
 * runs answers 202, and its run URL is checked as well (`check-run.ts`, docs/runs.md).
 *
 * The probes are built on the form's own example when `m` has one, else on values generated
 * from `s` (`formValue`). The verdict is `conforms` only when every MUST point was tried and
 * none failed: a MUST point left untried (no value to build on, a 429, a form the compiler
 * refuses; an act answered 429, or 503 with `Retry-After` as a full run store answers) makes it
 * `inconclusive`, naming the points; the act is the one MUST point left out on request (it
 * needs `act: true`). A probe no value of the form could carry (a nested
 * duplicate where the form admits no nested object, by `formKinds`) is `n/a`.
 *
 * @see draft "Arrival", "Verification", "Response", "Actor Identity"; DESIGN.md §1
 * @module
 */
import { FormError } from "../compile/form-error.ts";
import { checkMetaSchema } from "../compile/meta-schema.ts";
import { JsonSyntaxError } from "../json/json-syntax-error.ts";
import { parseJson } from "../json/parse.ts";
import { type ArrivalDocument, ArrivalError, examplesOf, toArrivalDocument } from "./arrival.ts";
import { checkRun } from "./check-run.ts";
import { formKinds } from "./form-kinds.ts";
import { compileValidator, type FormValidator } from "./form-validator.ts";
import { formValue } from "./form-value.ts";
import { type Exchange, ExchangeError, exchange, mediaType } from "./http.ts";
import { buildProbes, invalidCandidates, OVERSIZE_BYTES, type Probe } from "./probes.ts";

/** How binding a point is (BCP 14, as the draft or the cited RFC words it). */
export type Level = "MUST" | "SHOULD" | "MAY";
/**
 * `pass`; `fail`; `warn` (passed with a remark); `skip` (could not be tried, with the reason);
 * `n/a` (no value the form accepts could carry the probe, so no address could act on it).
 */
export type Outcome = "pass" | "fail" | "warn" | "skip" | "n/a";
/**
 * `conforms`: every MUST point tried passed; `does-not-conform`: a MUST point failed;
 * `inconclusive`: none failed, but some were not tried (listed in `untested`).
 */
export type Verdict = "conforms" | "does-not-conform" | "inconclusive";

/** One checked point. */
export interface CheckPoint {
  /** Stable id, such as `duplicate-name`. */
  readonly id: string;
  /** DESIGN.md requirement id (A1, V2…) or the RFC section. */
  readonly requirement: string;
  readonly level: Level;
  readonly outcome: Outcome;
  /** What was checked, in one line. */
  readonly title: string;
  /** What was seen. */
  readonly detail: string;
}

/** The whole report. */
export interface CheckReport {
  readonly url: string;
  readonly points: readonly CheckPoint[];
  readonly verdict: Verdict;
  /** The verdict is `conforms`. */
  readonly ok: boolean;
  /** The MUST points not tried (skipped), but the act when it was not asked for. */
  readonly untested: readonly string[];
  /** What the probes were built on: the form's example, a value generated from s, or nothing. */
  readonly probeValue: "example" | "generated" | null;
}

/** Options of {@link checkAddress}. */
export interface CheckOptions {
  /** Also POST the form's own example once (an act with whatever side effect it has). */
  readonly act?: boolean;
  /** Per-request timeout in milliseconds (default 30 000). */
  readonly timeoutMs?: number;
  /** How long the act's run is followed before it is given up (`DELETE`), ms (default 60 000). */
  readonly runTimeoutMs?: number;
}

const decoder = new TextDecoder();
const equalBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

/** Titles, levels and requirement ids of the refusal probes. */
const PROBES: Readonly<Record<string, { requirement: string; level: Level; title: string }>> = {
  "duplicate-name": { requirement: "V2", level: "MUST", title: "a duplicated member name is refused" },
  "duplicate-name-escaped": {
    requirement: "V2",
    level: "MUST",
    title: "a duplicated member name spelled with an escape is refused",
  },
  "duplicate-name-nested": { requirement: "V2", level: "MUST", title: "a duplicated member name deep down is refused" },
  "trailing-bytes": { requirement: "V2", level: "MUST", title: "bytes after the value are refused" },
  "invalid-utf8": { requirement: "C1 (RFC 8259 §8.1)", level: "MUST", title: "invalid UTF-8 is refused" },
  "byte-order-mark": { requirement: "V2 (RFC 8259 §8.1)", level: "SHOULD", title: "a byte order mark is refused" },
  "lone-surrogate": { requirement: "V2 (RFC 7493 §2.1)", level: "SHOULD", title: "a lone surrogate is refused" },
  oversize: { requirement: "V1", level: "MUST", title: `a body over ${OVERSIZE_BYTES / 1024 / 1024} MiB is refused` },
};

/**
 * How long the oversize probe waits, after the server's `100 (Continue)` (or after the head,
 * with no `100`), for a final answer before it sends its body: 1 s. A server refusing on the
 * `Content-Length` answers in that time; one that reads first gets the body after it.
 */
export const EXPECT_CONTINUE_MS = 1_000;

/**
 * Checks the address at `url` and reports every point.
 *
 * @example
 * ```ts
 * const report = await checkAddress("http://127.0.0.1:8787/page");
 * for (const p of report.points) if (p.outcome === "fail") console.log(p.id, p.detail);
 * process.exitCode = report.ok ? 0 : 1;
 * ```
 */
export async function checkAddress(url: string, options: CheckOptions = {}): Promise<CheckReport> {
  const points: CheckPoint[] = [];
  const add = (id: string, requirement: string, level: Level, outcome: Outcome, title: string, detail: string) =>
    points.push({ id, requirement, level, outcome, title, detail });
  const send = async (method: string, headers: Record<string, string> = {}, body?: Uint8Array) =>
    exchange(url, { method, headers, body, timeoutMs: options.timeoutMs });
  let probeValue: CheckReport["probeValue"] = null;
  const done = (): CheckReport => {
    const untested = points
      .filter((p) => p.level === "MUST" && p.outcome === "skip" && (p.id !== "act" || options.act === true))
      .map((p) => p.id);
    const verdict = points.some((p) => p.level === "MUST" && p.outcome === "fail")
      ? "does-not-conform"
      : untested.length > 0
        ? "inconclusive"
        : "conforms";
    return { url, points, verdict, ok: verdict === "conforms", untested, probeValue };
  };

  // Arrival (A1, A2): a GET with no header field but Host.
  let bare: Exchange;
  try {
    bare = await send("GET");
  } catch (error) {
    add("arrival", "A1", "MUST", "fail", "GET with no header returns the form", (error as Error).message);
    return done();
  }
  if (bare.status !== 200) {
    add("arrival", "A1", "MUST", "fail", "GET with no header returns the form", `answered ${bare.status}, not 200`);
    return done();
  }
  add("arrival", "A1", "MUST", "pass", "GET with no header returns the form", "200");
  const type = mediaType(bare.headers["content-type"]);
  add(
    "arrival-media-type",
    "A2",
    "MUST",
    type === "application/json" ? "pass" : "fail",
    "the form is served as application/json",
    type || "no Content-Type",
  );
  let document: ArrivalDocument;
  try {
    document = toArrivalDocument(parseJson(bare.body));
    add(
      "arrival-document",
      "A2",
      "MUST",
      "pass",
      "the body is a JSON object with p, m and s",
      "strict JSON, {p, m, s}",
    );
  } catch (error) {
    const detail =
      error instanceof JsonSyntaxError
        ? `not strict JSON (${error.code} at byte ${error.offset})`
        : error instanceof ArrivalError
          ? error.message
          : String(error);
    add("arrival-document", "A2", "MUST", "fail", "the body is a JSON object with p, m and s", detail);
    return done();
  }
  const again = await send("GET");
  const same = again.status === 200 && equalBytes(again.body, bare.body);
  add(
    "no-state",
    "A5",
    "MUST",
    same ? "pass" : "fail",
    "a second contact gets the same form",
    same ? "same bytes" : `answered ${again.status} with ${again.body.length} bytes`,
  );
  if (bare.setCookie.length > 0) {
    add("no-cookie", "A5", "SHOULD", "warn", "the form sets no cookie", `Set-Cookie: ${bare.setCookie.join("; ")}`);
  } else add("no-cookie", "A5", "SHOULD", "pass", "the form sets no cookie", "none");

  // The form (F1) and what the project's compiler makes of it.
  const violations = checkMetaSchema(document.s);
  add(
    "form-schema",
    "F1",
    "MUST",
    violations.length === 0 ? "pass" : "fail",
    "s is a valid JSON Schema 2020-12",
    violations.length === 0
      ? "meta-schema passed"
      : violations
          .slice(0, 3)
          .map((v) => `/s${v.pointer}: ${v.error}`)
          .join("; "),
  );
  let validator: FormValidator | undefined;
  try {
    validator = await compileValidator(document.s);
    add("form-compiles", "V4", "SHOULD", "pass", "the gpt-address compiler can enforce s exactly", "compiled");
  } catch (error) {
    if (!(error instanceof FormError)) throw error;
    add(
      "form-compiles",
      "V4",
      "SHOULD",
      "fail",
      "the gpt-address compiler can enforce s exactly",
      `/s${error.pointer}: ${error.message}`,
    );
  }
  const examples = examplesOf(document);
  /** The values the probes are built on, in order of preference: the example, then values from s. */
  const bases: { readonly value: unknown; readonly text: string; readonly generated: boolean }[] = [];
  if (validator === undefined) {
    add("examples-valid", "A2", "SHOULD", "skip", "every example act in m is valid against s", "s did not compile");
  } else if (examples.length === 0) {
    add("examples-valid", "A2", "SHOULD", "skip", "every example act in m is valid against s", "m has no JSON example");
  } else {
    const rejected = examples.flatMap((e) => {
      const failure = validator.check(e.value);
      return failure === null ? [] : [`m/${e.index}: ${failure.pointer} (${failure.keyword})`];
    });
    const example = examples.find((e) => validator.check(e.value) === null);
    if (example !== undefined) bases.push({ value: example.value, text: example.text, generated: false });
    add(
      "examples-valid",
      "A2",
      "SHOULD",
      rejected.length === 0 ? "pass" : "fail",
      "every example act in m is valid against s",
      rejected.length === 0 ? `${examples.length} example(s) valid` : rejected.join("; "),
    );
  }
  if (validator !== undefined) {
    // Values from s itself: the smallest, then a fuller one for probes the smallest cannot carry.
    for (const shape of ["least", "full"] as const) {
      const generated = formValue(document.s, shape);
      if (generated !== undefined && validator.check(generated.value) === null) {
        const text = JSON.stringify(generated.value);
        if (!bases.some((b) => b.text === text)) bases.push({ value: generated.value, text, generated: true });
      }
    }
  }
  const base = bases[0];
  if (base !== undefined) probeValue = base.generated ? "generated" : "example";

  // HTTP around the form (RFC 9110): HEAD, validators, caching, negotiation (A6).
  const head = await send("HEAD");
  const headOk = head.status === 200 && head.body.length === 0 && mediaType(head.headers["content-type"]) === type;
  add(
    "head",
    "RFC 9110 §9.3.2",
    "SHOULD",
    headOk ? "pass" : "fail",
    "HEAD answers like GET, without content",
    `${head.status}, ${head.body.length} bytes`,
  );
  const etag = bare.headers.etag;
  if (etag === undefined) {
    add("conditional-get", "S4", "SHOULD", "warn", "If-None-Match with the ETag gets 304", "the form has no ETag");
  } else {
    const conditional = await send("GET", { "if-none-match": etag });
    add(
      "conditional-get",
      "S4",
      "SHOULD",
      conditional.status === 304 && conditional.body.length === 0 ? "pass" : "fail",
      "If-None-Match with the ETag gets 304",
      `ETag ${etag}: ${conditional.status}`,
    );
  }
  const cacheControl = bare.headers["cache-control"];
  add(
    "cache-control",
    "S4",
    "SHOULD",
    cacheControl ? "pass" : "warn",
    "the form says how long it may be cached",
    cacheControl ?? "no Cache-Control",
  );
  const negotiated: string[] = [];
  for (const accept of ["application/json", "*/*", "text/plain"]) {
    const r = await send("GET", { accept });
    if (r.status !== 200 || !equalBytes(r.body, bare.body))
      negotiated.push(`Accept: ${accept} → ${r.status}, other bytes`);
  }
  add(
    "accept-json",
    "A6",
    "MUST",
    negotiated.length === 0 ? "pass" : "fail",
    "an Accept without text/html gets the same JSON",
    negotiated.join("; ") || "same bytes",
  );
  const html = await send("GET", { accept: "text/html" });
  const page = mediaType(html.headers["content-type"]) === "text/html";
  add(
    "accept-html",
    "A6",
    "MAY",
    "pass",
    "Accept: text/html may get a page for people",
    page ? "a page for people" : `the JSON again (${mediaType(html.headers["content-type"]) || "no type"})`,
  );
  if (page) {
    const vary = (bare.headers.vary ?? "")
      .toLowerCase()
      .split(",")
      .map((v) => v.trim());
    const varies = vary.includes("accept") || vary.includes("*");
    add(
      "vary-accept",
      "RFC 9110 §12.5.5",
      "SHOULD",
      varies ? "pass" : "fail",
      "the JSON says Vary: Accept, since a page exists too",
      bare.headers.vary ?? "no Vary",
    );
  }

  // Refusal probes (V1, V2, C1, R2, H1): bodies a lenient address would act on.
  const skipAll = (why: string) => {
    for (const [id, probe] of Object.entries(PROBES)) add(id, probe.requirement, probe.level, "skip", probe.title, why);
    add("invalid-value", "R2", "MUST", "skip", "an invalid value is refused with 204 and no content", why);
    add("gpt-actor", "H1", "MUST", "skip", "GPT-Actor does not change the answer", why);
  };
  if (validator === undefined || base === undefined) {
    skipAll(
      validator === undefined
        ? "s did not compile"
        : "no value to build probes on: no valid example in m, and none could be generated from s",
    );
  } else {
    const accepts = (value: unknown) => validator.check(value) === null;
    const kinds = formKinds(document.s);
    /** Why no value of the form could carry a probe, when provably none could. */
    const inapplicable: Readonly<Record<string, string | false>> = {
      "duplicate-name": !kinds.rootObject && "s admits no object",
      "duplicate-name-escaped": !kinds.rootObject && "s admits no object",
      "duplicate-name-nested": !kinds.nestedObject && "s admits no object below the top",
      "invalid-utf8": !kinds.freeString && "s admits no string but fixed ones (const, enum)",
    };
    // Each base's probes, built when an earlier base could not carry one.
    const built: Map<string, Probe | undefined>[] = [];
    const probeFor = (id: string): { probe: Probe; generated: boolean } | undefined => {
      for (let i = 0; i < bases.length; i++) {
        built[i] ??= buildProbes(bases[i]!.value, accepts);
        const probe = built[i]!.get(id);
        if (probe !== undefined && accepts(probe.lenient)) return { probe, generated: bases[i]!.generated };
      }
      return undefined;
    };
    const refusals: string[] = [];
    const post = async (body: Uint8Array, headers: Record<string, string> = {}, expectContinueMs?: number) => {
      try {
        return await exchange(url, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body,
          timeoutMs: options.timeoutMs,
          expectContinueMs,
        });
      } catch (error) {
        if (error instanceof ExchangeError && error.code === "reset") return undefined;
        throw error;
      }
    };
    for (const [id, meta] of Object.entries(PROBES)) {
      const carried = probeFor(id);
      if (carried === undefined) {
        const why = inapplicable[id];
        if (why) add(id, meta.requirement, meta.level, "n/a", meta.title, `not applicable: ${why}`);
        else add(id, meta.requirement, meta.level, "skip", meta.title, "no value found that could carry this probe");
        continue;
      }
      const { probe } = carried;
      const on = carried.generated ? "; on a value generated from s" : "";
      // A server that refuses a body before reading it may close the connection with the
      // body still arriving, and the client can then lose the answer (RFC 9112 §9.6): the
      // oversize body waits behind `Expect: 100-continue`, so that an answer to its
      // Content-Length alone comes before any of it is sent. Should the answer still be lost,
      // try again, and count a connection closed mid-body as not acted on (the value was never
      // read whole).
      const expect = id === "oversize" ? EXPECT_CONTINUE_MS : undefined;
      let answer = await post(probe.bytes, {}, expect);
      for (let retry = 0; answer === undefined && retry < 4; retry++) answer = await post(probe.bytes, {}, expect);
      if (answer === undefined) {
        refusals.push(`${id} → connection closed without an answer`);
        add(
          id,
          meta.requirement,
          meta.level,
          "pass",
          meta.title,
          `refused: closed the connection before the body was read${on}`,
        );
        continue;
      }
      if (answer.status === 429) {
        const after = answer.headers["retry-after"];
        add(
          id,
          meta.requirement,
          meta.level,
          "skip",
          meta.title,
          `rate limited (429${after ? `, Retry-After ${after}` : ""}): not decided${on}`,
        );
        continue;
      }
      const acted = answer.status >= 200 && answer.status < 300 && answer.status !== 204;
      if (!acted && (answer.status !== 204 || answer.body.length > 0)) {
        refusals.push(`${id} → ${answer.status}${answer.body.length > 0 ? ` with ${answer.body.length} bytes` : ""}`);
      }
      add(
        id,
        meta.requirement,
        meta.level,
        acted ? "fail" : answer.status >= 500 ? "warn" : "pass",
        meta.title,
        `${acted ? `accepted and acted on (${answer.status})` : `refused (${answer.status})`}${on}`,
      );
    }
    const invalid = invalidCandidates(base.value).find((value) => !accepts(value));
    if (invalid === undefined) {
      add(
        "invalid-value",
        "R2",
        "MUST",
        "skip",
        "an invalid value is refused with 204 and no content",
        "s accepts every candidate",
      );
      add("gpt-actor", "H1", "MUST", "skip", "GPT-Actor does not change the answer", "no invalid value to send");
    } else {
      const bytes = new TextEncoder().encode(JSON.stringify(invalid));
      const answer = await post(bytes);
      const status = answer?.status ?? 0;
      const silent = status === 204 && answer?.body.length === 0;
      add(
        "invalid-value",
        "R2",
        "MUST",
        status >= 200 && status < 300 && status !== 204 ? "fail" : silent ? "pass" : status === 429 ? "skip" : "warn",
        "an invalid value is refused with 204 and no content",
        `${decoder.decode(bytes).slice(0, 60)} → ${status || "no answer"}${answer && answer.body.length > 0 ? ` with ${answer.body.length} bytes` : ""}`,
      );
      const differing: string[] = [];
      let limited = status === 429;
      for (const actor of ["admin", "gpt-address check; via=cli"]) {
        const withActor = await post(bytes, { "gpt-actor": actor });
        limited ||= withActor?.status === 429;
        if ((withActor?.status ?? 0) !== status)
          differing.push(`GPT-Actor: ${actor} → ${withActor?.status ?? "no answer"}`);
      }
      add(
        "gpt-actor",
        "H1",
        "MUST",
        limited ? "skip" : differing.length === 0 ? "pass" : "fail",
        "GPT-Actor does not change the answer",
        limited ? "rate limited (429): not decided" : differing.join("; ") || `${status} with and without it`,
      );
    }
    add(
      "silent-refusal",
      "R2",
      "SHOULD",
      refusals.length === 0 ? "pass" : "warn",
      "every refusal is 204 with no content",
      refusals.length === 0 ? "all 204, empty" : refusals.join("; "),
    );
  }

  // The one act with a side effect (R1), only when asked for: the example, else a value from s.
  if (!options.act || base === undefined) {
    add(
      "act",
      "R1",
      "MUST",
      "skip",
      "the form's own example is accepted with 200 JSON",
      base === undefined ? "no valid example in m, and none generated from s" : "needs --act (it acts, once)",
    );
  } else {
    // Sent with Prefer: respond-async: an address that offers runs answers 202, and its run URL
    // is checked too; any other answers as it would without the preference (RFC 7240 §2).
    const answer = await send(
      "POST",
      { "content-type": "application/json", "gpt-actor": "gpt-address check --act", prefer: "respond-async" },
      new TextEncoder().encode(base.text),
    );
    if (answer.status === 202) {
      const end = await checkRun(url, answer, add, options);
      add(
        "act",
        "R1",
        "MUST",
        end?.status === "completed" ? "pass" : "fail",
        "the form's own example is accepted with 200 JSON",
        `202, a run${end ? ` that ended ${end.status}` : " not followed to its end"}` +
          (base.generated ? "; m has no example: a value generated from s was sent" : ""),
      );
      return done();
    }
    const generated = base.generated ? "; m has no example: a value generated from s was sent" : "";
    const retryAfter = answer.headers["retry-after"];
    if (answer.status === 429 || (answer.status === 503 && retryAfter !== undefined)) {
      // Not now, not no: rate limited, or unavailable for a while (a full run store answers a
      // request for a run so, docs/runs.md). Nothing is decided, as for a probe answered 429.
      const why =
        answer.status === 429
          ? `rate limited (429, Retry-After ${retryAfter ?? "none"})`
          : `unavailable for now (503, Retry-After ${retryAfter}: the run store is full, or the act declined until then)`;
      add(
        "runs",
        "runs.md",
        "MAY",
        "skip",
        "an act asked with Prefer: respond-async may become a run (202)",
        `${why}: not decided`,
      );
      add(
        "act",
        "R1",
        "MUST",
        "skip",
        "the form's own example is accepted with 200 JSON",
        `${why}: not decided${generated}`,
      );
      return done();
    }
    add(
      "runs",
      "runs.md",
      "MAY",
      "n/a",
      "an act asked with Prefer: respond-async may become a run (202)",
      `answered ${answer.status}: no runs offered (or the act was done at once)`,
    );
    const json = mediaType(answer.headers["content-type"]) === "application/json";
    let parsed = false;
    try {
      parseJson(answer.body);
      parsed = true;
    } catch {}
    add(
      "act",
      "R1",
      "MUST",
      answer.status === 200 && json && parsed ? "pass" : "fail",
      "the form's own example is accepted with 200 JSON",
      `${answer.status} ${mediaType(answer.headers["content-type"]) || ""}`.trim() + generated,
    );
  }
  return done();
}
