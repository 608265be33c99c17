/**
 * Runs node-llama-cpp's JSON Schema converter and the bundled llama.cpp grammar parser in a
 * process of its own, for test/node/lint/node-llama-cpp.test.ts: the grammar parser reports a
 * refusal by writing to file descriptor 2 from native code, which no logger option catches, so
 * the test runs it here and reads that stream as evidence instead of letting it into its output.
 *
 * Input (stdin): a JSON array of `{ schema }` (convert a JSON Schema) or `{ gbnf }` (parse a
 * GBNF grammar). Output (stdout): a JSON array, one entry per input: the converted grammar, `""`
 * for a GBNF grammar that parsed, or `"R"` when the converter or parser refused it.
 */
import { getLlama, LlamaGrammar } from "node-llama-cpp";

type Job = { readonly schema: unknown } | { readonly gbnf: string };

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const jobs = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Job[];

const llama = await getLlama({ gpu: false, build: "never", progressLogs: false, logLevel: "error" as never });
const results: string[] = [];
for (const job of jobs) {
  try {
    if ("gbnf" in job) {
      new LlamaGrammar(llama, { grammar: job.gbnf });
      results.push("");
    } else {
      results.push((await llama.createGrammarForJsonSchema(job.schema as never)).grammar);
    }
  } catch {
    results.push("R");
  }
}
await llama.dispose();
process.stdout.write(JSON.stringify(results));
