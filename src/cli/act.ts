/**
 * `gpt-address act <URL>`: act on an address, with a value given by hand (`--body FILE|-`) or
 * produced by a language model (`--actor <name> --model <id> --prompt "…"`) through its
 * vendor's official SDK, the form projected for that actor. The value is checked locally
 * against the full form first; nothing is sent unless it passes (or `--force`).
 *
 * An address that answers `202 Accepted` (asked with `--async [--wait N]`, or not) is followed to
 * the run's end (docs/runs.md): a progress bar on a terminal, plain lines otherwise, both on
 * standard error; `--run-timeout S` gives the run up after S seconds, and Ctrl-C gives it up at
 * once: the run is `DELETE`d. `--idempotency-key K` lets a retry of the same act be acted on once.
 *
 * Exit codes: 0 accepted (200, or a run completed); 1 refused (204), not sent (local failure),
 * a run failed, cancelled or gone, another answer, or the model failed; 2 usage, a missing key or
 * SDK; 130 interrupted (Ctrl-C; a run was `DELETE`d).
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
import { RunReadError } from "../client/run.ts";
import { FormError } from "../compile/form-error.ts";
import { describeRun, runProgress } from "./run-progress.ts";
import { type CliIo, exitCodes, formatArg, ioOf, UsageError } from "./shared.ts";

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

async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

const why = (failure: LocalFailure) => `not sent: ${failure.message}`;

/** Prints the outcome and returns the exit code. */
function report(io: CliIo, result: ActResult, format: string): number {
  const answer = result.answer;
  if (format === "json") {
    io.stdout(
      `${JSON.stringify(
        {
          url: result.arrival.url,
          sent: answer !== undefined,
          status: answer?.status ?? null,
          outcome: answer?.kind ?? "not-sent",
          answer: answer?.json ?? null,
          ...(answer?.runUrl === undefined ? {} : { runUrl: answer.runUrl, run: answer.run ?? null }),
          failure: result.failure,
          attempts: result.attempts.map((a) => ({ text: a.text, failure: a.failure, warnings: a.warnings })),
          warnings: result.warnings,
        },
        null,
        2,
      )}\n`,
    );
  } else if (answer === undefined) {
    io.stderr(`gpt-address act: ${why(result.failure!)} (--force sends it anyway)\n`);
  } else if (answer.kind === "accepted") {
    io.stdout(
      answer.json === undefined
        ? `${new TextDecoder().decode(answer.response.body)}\n`
        : `${JSON.stringify(answer.json, null, 2)}\n`,
    );
  } else if (answer.kind === "refused") {
    io.stderr("gpt-address act: refused (204)\n");
  } else if (answer.kind === "form-changed") {
    io.stderr("gpt-address act: the form changed since it was retrieved (412); retrieve it again\n");
  } else if (answer.kind === "rate-limited") {
    const retryAfter = answer.response.headers["retry-after"];
    io.stderr(`gpt-address act: rate limited (429)${retryAfter ? `, Retry-After: ${retryAfter}` : ""}\n`);
  } else if (answer.kind === "run-failed") {
    io.stderr(`gpt-address act: the act's run failed (${answer.runUrl}): ${describeRun(answer.run!)}\n`);
  } else if (answer.kind === "run-cancelled") {
    io.stderr(
      `gpt-address act: the act's run was cancelled (${answer.runUrl})${answer.run ? `: ${describeRun(answer.run)}` : ""}\n`,
    );
  } else if (answer.kind === "run-gone") {
    io.stderr(`gpt-address act: the act's run is gone (404) before it ended; its answer is lost (${answer.runUrl})\n`);
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
    if (args["idempotency-key"] !== undefined && !/^[\x20-\x7e]+$/.test(args["idempotency-key"]))
      throw new UsageError("--idempotency-key must be printable ASCII");
    // Ctrl-C gives the act up: before the answer, the POST is dropped; after a 202, the run is DELETEd.
    const interrupt = new AbortController();
    const onSigint = () => {
      process.off("SIGINT", onSigint); // a second Ctrl-C ends the process at once
      interrupt.abort(new DOMException("interrupted", "AbortError"));
    };
    process.on("SIGINT", onSigint);
    const progress = await runProgress(io, args.format !== "json" && process.stderr.isTTY === true);
    const common = {
      force: args.force,
      pin: args.pin,
      onSend,
      signal: interrupt.signal,
      ...(args.async ? { respondAsync: wait === undefined ? true : { wait } } : {}),
      ...(args["idempotency-key"] === undefined ? {} : { idempotencyKey: args["idempotency-key"] }),
      ...(runTimeout === undefined ? {} : { runTimeoutMs: runTimeout * 1000 }),
      onRun: (run: Parameters<typeof progress.update>[0], runUrl: string) => progress.update(run, runUrl),
    };
    /** The exit code of a finished act: 130 when Ctrl-C gave it up. */
    const outcome = (result: ActResult, format: string) => {
      progress.stop();
      const code = report(io, result, format);
      return interrupt.signal.aborted && result.answer?.kind === "run-cancelled" ? exitCodes.interrupted : code;
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
            for (const w of warnings) io.stderr(`projection: ${w.pointer ?? ""} ${w.message}\n`);
            io.stderr(`${label}: attempt 1/${retries + 1}…\n`);
          },
          onAttempt: (attempt, i) => {
            const seconds = ((Date.now() - started) / 1000).toFixed(1);
            const state = attempt.failure === null ? "valid" : why(attempt.failure);
            io.stderr(`${label}: attempt ${i + 1}/${retries + 1} ${state} (${seconds} s)\n`);
            if (attempt.failure !== null && i < retries) io.stderr(`${label}: attempt ${i + 2}/${retries + 1}…\n`);
            for (const w of attempt.warnings) io.stderr(`warning: ${w.message}\n`);
          },
        });
        return outcome(result, args.format);
      } finally {
        await client.close?.();
      }
    } catch (error) {
      progress.stop();
      if (interrupt.signal.aborted) {
        io.stderr(
          `gpt-address act: interrupted${sent ? " before the address answered; the act may have been done" : ": nothing was sent"}\n`,
        );
        return exitCodes.interrupted;
      }
      if (error instanceof RunReadError) {
        io.stderr(`gpt-address act: ${error.message}\n`);
        return exitCodes.findings;
      }
      if (error instanceof ActorSetupError) throw new UsageError(error.message);
      if (error instanceof ModelError) {
        io.stderr(
          `gpt-address act: ${error.message}${error.status ? ` (status ${error.status}${error.code ? `, ${error.code}` : ""})` : ""}${error.retryable ? "; try again later" : ""}\n`,
        );
        return exitCodes.findings;
      }
      if (error instanceof ArrivalError || error instanceof ExchangeError) {
        io.stderr(`gpt-address act: ${url}: ${error.message}\n`);
        return exitCodes.findings;
      }
      if (error instanceof FormError) {
        io.stderr(
          `gpt-address act: ${url}: the form cannot be checked locally: /s${error.pointer}: ${error.message}\n`,
        );
        return exitCodes.findings;
      }
      throw error;
    } finally {
      process.off("SIGINT", onSigint);
    }
  },
});
