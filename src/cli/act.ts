/**
 * `gpt-address act <URL>`: act on an address, with a value given by hand (`--body FILE|-`) or
 * produced by a language model (`--actor <name> --model <id> --prompt "…"`) through its
 * vendor's official SDK, the form projected for that actor. The value is checked locally
 * against the full form first; nothing is sent unless it passes (or `--force`).
 *
 * An address that answers `202 Accepted` (asked with `--async [--wait N]`, or not) is followed to
 * the run's end (docs/runs.md): a progress bar on a terminal, plain lines otherwise, both on
 * standard error; `--run-timeout S` gives the run up after S seconds, and Ctrl-C, SIGTERM or
 * SIGHUP give it up at once: the run is `DELETE`d. `--idempotency-key K` lets a retry of the
 * same act be acted on once. What the server says reaches the terminal through `terminalText`.
 *
 * Exit codes: 0 accepted (200, or a run completed); 1 refused (204), not sent (local failure),
 * a run failed, cancelled or gone, another answer, or the model failed; 2 usage, a missing key or
 * SDK; 130, 143, 129 interrupted by SIGINT (Ctrl-C), SIGTERM, SIGHUP (a run was `DELETE`d).
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { defineCommand } from "citty";
import { type ActResult, actWithBody, actWithModel, type LocalFailure } from "../client/act.ts";
import { ArrivalError } from "../client/arrival.ts";
import { ExchangeError } from "../client/http.ts";
import { ActorSetupError, type ModelClient, ModelError } from "../client/model.ts";
import { type ProfiledActor, profiles } from "../client/profiles.ts";
import { RunReadError, retryAfterSeconds } from "../client/run.ts";
import { FormError } from "../compile/form-error.ts";
import { describeRun, runProgress } from "./run-progress.ts";
import { type CliIo, exitCodes, formatArg, ioOf, UsageError } from "./shared.ts";
import { terminalJson, terminalText } from "./terminal-text.ts";

const ACTORS = [
  "openai",
  "anthropic",
  "google",
  "ollama",
  "node-llama-cpp",
] as const satisfies readonly ProfiledActor[];
type Actor = (typeof ACTORS)[number];

/** Builds the model client of `actor` (each loads its SDK lazily). */
async function clientFor(
  actor: Actor,
  options: { model: string; baseURL?: string; cwd: string; retriesHttp?: number },
): Promise<ModelClient> {
  switch (actor) {
    case "openai":
      return (await import("../client/actors/openai.ts")).createOpenAIClient({
        model: options.model,
        baseURL: options.baseURL,
      });
    case "anthropic":
      return (await import("../client/actors/anthropic.ts")).createAnthropicClient({
        model: options.model,
        baseURL: options.baseURL,
      });
    case "google":
      return (await import("../client/actors/google.ts")).createGoogleClient({
        model: options.model,
        baseURL: options.baseURL,
      });
    case "ollama":
      return (await import("../client/actors/ollama.ts")).createOllamaClient({
        model: options.model,
        host: options.baseURL,
      });
    case "node-llama-cpp":
      return (await import("../client/actors/node-llama-cpp.ts")).createNodeLlamaCppClient({
        modelPath: resolve(options.cwd, options.model),
      });
  }
}

/** The signals that give an act up (its run `DELETE`d), as a user or a supervisor sends them. */
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
type StopSignal = (typeof STOP_SIGNALS)[number];

/** The exit code after `signal`: 128 + its number (130, 143, 129), as a shell reports it. */
const signalExit = (signal: StopSignal): number =>
  signal === "SIGINT" ? exitCodes.interrupted : signal === "SIGTERM" ? exitCodes.terminated : exitCodes.hungUp;

async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

const why = (failure: LocalFailure) => `not sent: ${terminalText(failure.message)}`;

/** A `Retry-After` field value as the CLI prints it: `, Retry-After: 30 s` (seconds, also from an HTTP-date). */
function retryAfterNote(field: string | undefined): string {
  if (field === undefined) return "";
  const seconds = retryAfterSeconds(field);
  return `, Retry-After: ${seconds === undefined ? `${terminalText(field, 60)} (not seconds nor a date)` : `${seconds} s`}`;
}

/** What the act asked for, which some answers are about. */
interface Asked {
  readonly idempotencyKey?: string;
  /** `--run-timeout`, seconds. */
  readonly runTimeout?: number;
  /** The signal that gave the act up, when one did. */
  readonly signal?: NodeJS.Signals;
}

/** Prints the outcome and returns the exit code. Server text goes through `terminalText`/`terminalJson`. */
function report(io: CliIo, result: ActResult, format: string, asked: Asked = {}): number {
  const answer = result.answer;
  const runUrl = answer?.runUrl === undefined ? "" : terminalText(answer.runUrl);
  if (format === "json") {
    io.stdout(
      `${terminalJson(
        {
          url: result.arrival.url,
          sent: answer !== undefined,
          status: answer?.status ?? null,
          outcome: answer?.kind ?? "not-sent",
          answer: answer?.json ?? null,
          ...(answer?.runUrl === undefined ? {} : { runUrl: answer.runUrl, run: answer.run ?? null }),
          ...(answer?.givenUp === undefined ? {} : { givenUp: answer.givenUp }),
          failure: result.failure,
          attempts: result.attempts.map((a) => ({ text: a.text, failure: a.failure, warnings: a.warnings })),
          warnings: result.warnings,
        },
        2,
      )}\n`,
    );
  } else if (answer === undefined) {
    io.stderr(`gpt-address act: ${why(result.failure!)} (--force sends it anyway)\n`);
  } else if (answer.kind === "accepted") {
    // Standard output is the act's answer: JSON as its value is (control characters escaped);
    // bytes that are not JSON as they are, but on a terminal.
    const text = new TextDecoder().decode(answer.response.body);
    io.stdout(
      answer.json === undefined
        ? `${process.stdout.isTTY ? terminalText(text, Number.POSITIVE_INFINITY) : text}\n`
        : `${terminalJson(answer.json)}\n`,
    );
  } else if (answer.kind === "refused") {
    io.stderr("gpt-address act: refused (204)\n");
  } else if (answer.kind === "form-changed") {
    io.stderr("gpt-address act: the form changed since it was retrieved (412); retrieve it again\n");
  } else if (answer.kind === "rate-limited") {
    io.stderr(`gpt-address act: rate limited (429)${retryAfterNote(answer.response.headers["retry-after"])}\n`);
  } else if (answer.kind === "run-failed") {
    io.stderr(`gpt-address act: the act's run failed (${runUrl}): ${describeRun(answer.run!)}\n`);
  } else if (answer.kind === "run-cancelled") {
    // The address's last word on the run, when it differs from what this line says already.
    const state = answer.run === undefined ? "" : describeRun(answer.run);
    const said = state === "" ? "" : `; the address says: ${state}`;
    if (answer.givenUp === "timeout")
      io.stderr(
        `gpt-address act: the act's run timed out: still running after --run-timeout ${asked.runTimeout ?? "?"} s, so it was given up and deleted (${runUrl})${said}\n`,
      );
    else if (answer.givenUp === "signal")
      io.stderr(
        `gpt-address act: interrupted${asked.signal ? ` (${asked.signal})` : ""}: the act's run was given up and deleted (${runUrl})${said}\n`,
      );
    else
      io.stderr(
        `gpt-address act: the act's run was cancelled by the address (${runUrl})${state === "" || state === "cancelled" ? "" : `: ${state}`}\n`,
      );
  } else if (answer.kind === "run-gone") {
    io.stderr(`gpt-address act: the act's run is gone (404) before it ended; its answer is lost (${runUrl})\n`);
  } else if (answer.status === 422 && asked.idempotencyKey !== undefined) {
    io.stderr(
      `gpt-address act: refused (422): the Idempotency-Key ${JSON.stringify(asked.idempotencyKey)} was used before with other bytes; nothing was done (use a new key for a new act)\n`,
    );
  } else if (answer.status === 503) {
    io.stderr(
      `gpt-address act: the address is unavailable for now (503)${retryAfterNote(answer.response.headers["retry-after"])}; nothing was done, try again then\n`,
    );
  } else {
    io.stderr(`gpt-address act: the address answered ${answer.status}\n`);
  }
  return answer?.kind === "accepted" ? exitCodes.ok : exitCodes.findings;
}

export default defineCommand({
  meta: {
    name: "act",
    description:
      "Act on a GPT address: POST a value from --body, or let --actor fill the form from --prompt. The value is checked against the form first.",
  },
  args: {
    url: { type: "positional", required: true, description: "The address, an http(s) URL", valueHint: "URL" },
    body: { type: "string", description: "The value to send: a file, or - for standard input", valueHint: "FILE|-" },
    actor: { type: "enum", options: [...ACTORS], description: "The model provider that fills the form" },
    model: { type: "string", description: "The model id (for node-llama-cpp: the GGUF file)", valueHint: "id|file" },
    prompt: { type: "string", description: "What the model should do at this address (the user's message)" },
    "base-url": {
      type: "string",
      description: "The provider's base URL (openai: any OpenAI-compatible server; ollama: its host)",
      valueHint: "URL",
    },
    retries: { type: "string", default: "2", description: "New model attempts after a local failure", valueHint: "N" },
    force: { type: "boolean", default: false, description: "Send even when the local check fails" },
    pin: { type: "boolean", default: false, description: "Send the form's ETag as If-Match (412 if it changed)" },
    verbose: { type: "boolean", default: false, description: "Show the exact bytes sent" },
    async: {
      type: "boolean",
      default: false,
      description: "Ask for a run (Prefer: respond-async) and follow it; a 202 is followed anyway",
    },
    wait: {
      type: "string",
      description: "With --async: the seconds the address may take before it answers with a run",
      valueHint: "N",
    },
    "idempotency-key": {
      type: "string",
      description: "Sent as Idempotency-Key: a retry with the same key and value is acted on once",
      valueHint: "K",
    },
    "run-timeout": {
      type: "string",
      description: "Give a run up (DELETE) after this many seconds",
      valueHint: "S",
    },
    ...formatArg,
  },
  async run(context) {
    const io = ioOf(context);
    const args = context.args;
    let url: string;
    try {
      url = new URL(args.url).href;
    } catch {
      throw new UsageError(`not a URL: ${JSON.stringify(args.url)}`);
    }
    let sent = false;
    const onSend = (bytes: Uint8Array, headers: Readonly<Record<string, string>>) => {
      sent = true;
      if (!args.verbose) return;
      const fields = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
      io.stderr(
        `POST ${url}\n${fields.join("\n")}\ncontent-length: ${bytes.length}\n\n${new TextDecoder().decode(bytes)}\n\n`,
      );
    };
    const wholeSeconds = (flag: string, text: string | undefined, least: number) => {
      if (text === undefined) return undefined;
      const seconds = Number(text);
      if (!Number.isInteger(seconds) || seconds < least)
        throw new UsageError(`--${flag} must be a whole number of seconds${least > 0 ? ` above 0` : ""}: ${text}`);
      return seconds;
    };
    const wait = wholeSeconds("wait", args.wait, 0);
    const runTimeout = wholeSeconds("run-timeout", args["run-timeout"], 1);
    if (wait !== undefined && !args.async) throw new UsageError("--wait needs --async");
    const key = args["idempotency-key"];
    if (key === "")
      throw new UsageError("--idempotency-key is empty: give a key of one or more printable ASCII characters");
    if (key !== undefined && !/^[\x20-\x7e]+$/.test(key))
      throw new UsageError("--idempotency-key must be printable ASCII (U+0020 to U+007E)");
    // Ctrl-C (SIGINT), SIGTERM (`timeout`, a CI job's end) and SIGHUP (a closed terminal) give
    // the act up: before the answer, the POST is dropped; after a 202, the run is DELETEd. The
    // exit code is then 128 + the signal's number, as a shell reports it.
    const interrupt = new AbortController();
    let caught: StopSignal | undefined;
    const onSignal = (signal: StopSignal) => {
      for (const name of STOP_SIGNALS) process.off(name, onSignal); // a second one ends the process at once
      caught = signal;
      interrupt.abort(new DOMException(`interrupted (${signal})`, "AbortError"));
    };
    for (const name of STOP_SIGNALS) process.on(name, onSignal);
    const progress = await runProgress(io, args.format !== "json" && process.stderr.isTTY === true);
    const common = {
      force: args.force,
      pin: args.pin,
      onSend,
      signal: interrupt.signal,
      ...(args.async ? { respondAsync: wait === undefined ? true : { wait } } : {}),
      ...(key === undefined ? {} : { idempotencyKey: key }),
      ...(runTimeout === undefined ? {} : { runTimeoutMs: runTimeout * 1000 }),
      onRun: (run: Parameters<typeof progress.update>[0], runUrl: string) => progress.update(run, runUrl),
    };
    /** The exit code of a finished act: 128 + the signal's number when a signal gave it up. */
    const outcome = (result: ActResult, format: string) => {
      progress.stop();
      const code = report(io, result, format, {
        ...(key === undefined ? {} : { idempotencyKey: key }),
        ...(runTimeout === undefined ? {} : { runTimeout }),
        ...(caught === undefined ? {} : { signal: caught }),
      });
      return caught !== undefined && result.answer?.kind === "run-cancelled" ? signalExit(caught) : code;
    };
    try {
      if (args.body !== undefined) {
        if (args.actor !== undefined || args.prompt !== undefined)
          throw new UsageError("--body and --actor/--prompt exclude each other");
        let bytes: Uint8Array;
        try {
          bytes = args.body === "-" ? await readStdin() : new Uint8Array(await readFile(resolve(io.cwd, args.body)));
        } catch (error) {
          throw new UsageError(`cannot read ${args.body}: ${(error as Error).message}`);
        }
        return outcome(await actWithBody(url, bytes, common), args.format);
      }
      if (args.actor === undefined || args.prompt === undefined || args.model === undefined) {
        throw new UsageError("give --body FILE|-, or --actor, --model and --prompt");
      }
      const retries = Number(args.retries);
      if (!Number.isInteger(retries) || retries < 0)
        throw new UsageError(`--retries must be a whole number: ${args.retries}`);
      const actor = args.actor as Actor;
      const client = await clientFor(actor, { model: args.model, baseURL: args["base-url"], cwd: io.cwd });
      const label = `${actor} ${basename(client.modelId)}`;
      const started = Date.now();
      try {
        const result = await actWithModel(url, client, {
          ...common,
          prompt: args.prompt,
          profile: profiles[actor],
          retries,
          onProjection: (warnings) => {
            for (const w of warnings) io.stderr(`projection: ${terminalText(`${w.pointer ?? ""} ${w.message}`)}\n`);
            io.stderr(`${label}: attempt 1/${retries + 1}…\n`);
          },
          onAttempt: (attempt, i) => {
            const seconds = ((Date.now() - started) / 1000).toFixed(1);
            const state = attempt.failure === null ? "valid" : why(attempt.failure);
            io.stderr(`${label}: attempt ${i + 1}/${retries + 1} ${state} (${seconds} s)\n`);
            if (attempt.failure !== null && i < retries) io.stderr(`${label}: attempt ${i + 2}/${retries + 1}…\n`);
            for (const w of attempt.warnings) io.stderr(`warning: ${terminalText(w.message)}\n`);
          },
        });
        return outcome(result, args.format);
      } finally {
        await client.close?.();
      }
    } catch (error) {
      progress.stop();
      if (caught !== undefined) {
        io.stderr(
          `gpt-address act: interrupted (${caught})${sent ? " before the address answered; the act may have been done" : ": nothing was sent"}\n`,
        );
        return signalExit(caught);
      }
      // Messages below may quote the server (or the model provider): printed through terminalText.
      if (error instanceof RunReadError) {
        io.stderr(`gpt-address act: ${terminalText(error.message)}\n`);
        return exitCodes.findings;
      }
      if (error instanceof ActorSetupError) throw new UsageError(error.message);
      if (error instanceof ModelError) {
        const code = error.code ? `, ${terminalText(error.code, 60)}` : "";
        io.stderr(
          `gpt-address act: ${terminalText(error.message)}${error.status ? ` (status ${error.status}${code})` : ""}${error.retryable ? "; try again later" : ""}\n`,
        );
        return exitCodes.findings;
      }
      if (error instanceof ArrivalError || error instanceof ExchangeError) {
        io.stderr(`gpt-address act: ${url}: ${terminalText(error.message)}\n`);
        return exitCodes.findings;
      }
      if (error instanceof FormError) {
        io.stderr(
          `gpt-address act: ${url}: the form cannot be checked locally: ${terminalText(`/s${error.pointer}: ${error.message}`)}\n`,
        );
        return exitCodes.findings;
      }
      throw error;
    } finally {
      for (const name of STOP_SIGNALS) process.off(name, onSignal);
    }
  },
});
