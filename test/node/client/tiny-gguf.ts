/**
 * Writes a tiny llama-architecture GGUF file with random weights and a small character-level
 * SentencePiece vocabulary, for running node-llama-cpp (llama.cpp) offline in tests: no model
 * download, a file of a few hundred KiB, generation in milliseconds per token.
 *
 * Format: GGUF version 3 (ggml-org/ggml `docs/gguf.md`): header, metadata key–value pairs,
 * tensor infos, then F32 tensor data aligned to 32 bytes. Tensor dimensions are ggml's `ne`
 * order (the fastest-varying first).
 */
import { writeFileSync } from "node:fs";

import { random } from "../../seeded-random.ts";

const GGUF_MAGIC = 0x46554747; // "GGUF" little-endian
const ALIGNMENT = 32;
/** GGUF metadata value types used here. */
const ValueType = { UINT32: 4, INT32: 5, FLOAT32: 6, STRING: 8, ARRAY: 9 } as const;
/** ggml tensor type F32. */
const F32 = 0;

/** Shape of the model written by {@link writeTinyGguf}. */
export interface TinyModelOptions {
  /** Width of the hidden state. */
  readonly embedding?: number;
  /** Transformer blocks. */
  readonly layers?: number;
  /** Attention heads (the key/value heads are as many). */
  readonly heads?: number;
  /** Width of the feed-forward layer. */
  readonly feedForward?: number;
  /** Context length the file declares, in tokens. */
  readonly contextLength?: number;
  /** Seed of the weights' pseudo-random generator. */
  readonly seed?: number;
  /** Standard deviation of the weights. */
  readonly scale?: number;
  /** Normal tokens besides the control and byte tokens (one string each). */
  readonly pieces?: readonly string[];
  /** Byte values that get a `<0xNN>` byte-fallback token. */
  readonly bytes?: readonly number[];
}

/** Printable ASCII, with SentencePiece's `▁` standing for the space. */
export const ASCII_PIECES: readonly string[] = [
  "▁",
  ...Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)),
  "\n",
];

class Writer {
  private chunks: Buffer[] = [];
  length = 0;
  private push(buffer: Buffer): void {
    this.chunks.push(buffer);
    this.length += buffer.length;
  }
  u32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value);
    this.push(b);
  }
  i32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(value);
    this.push(b);
  }
  u64(value: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(value));
    this.push(b);
  }
  f32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    this.push(b);
  }
  string(value: string): void {
    const bytes = Buffer.from(value, "utf8");
    this.u64(bytes.length);
    this.push(bytes);
  }
  raw(buffer: Buffer): void {
    this.push(buffer);
  }
  pad(): void {
    const rest = this.length % ALIGNMENT;
    if (rest !== 0) this.push(Buffer.alloc(ALIGNMENT - rest));
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

type VT = typeof ValueType;
type Meta =
  | { key: string; type: VT["UINT32"] | VT["INT32"] | VT["FLOAT32"]; value: number }
  | { key: string; type: VT["STRING"]; value: string }
  | { key: string; type: VT["ARRAY"]; of: VT["STRING"]; value: readonly string[] }
  | { key: string; type: VT["ARRAY"]; of: VT["FLOAT32"] | VT["INT32"]; value: readonly number[] };

/**
 * Writes the model to `path` and returns the vocabulary it holds (token id → piece).
 *
 * Token ids: 0 `<unk>`, 1 `<s>`, 2 `</s>`, then the byte tokens, then the pieces.
 */
export function writeTinyGguf(path: string, options: TinyModelOptions = {}): readonly string[] {
  const embedding = options.embedding ?? 32;
  const layers = options.layers ?? 2;
  const heads = options.heads ?? 2;
  const feedForward = options.feedForward ?? 64;
  const contextLength = options.contextLength ?? 4096;
  const scale = options.scale ?? 0.5;
  const next = random(options.seed ?? 1);
  const gaussian = () => Math.sqrt(-2 * Math.log(next() || 1e-12)) * Math.cos(2 * Math.PI * next());

  const byteTokens = (options.bytes ?? []).map((b) => `<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`);
  const pieces = options.pieces ?? ASCII_PIECES;
  const tokens = ["<unk>", "<s>", "</s>", ...byteTokens, ...pieces];
  // llama.cpp token types: 1 normal, 2 unknown, 3 control, 6 byte.
  const types = [2, 3, 3, ...byteTokens.map(() => 6), ...pieces.map(() => 1)];
  const scores = tokens.map((_, i) => (i < 3 + byteTokens.length ? 0 : -i));

  const meta: Meta[] = [
    { key: "general.architecture", type: ValueType.STRING, value: "llama" },
    { key: "general.name", type: ValueType.STRING, value: "gpt-address tiny random model" },
    { key: "general.alignment", type: ValueType.UINT32, value: ALIGNMENT },
    { key: "llama.context_length", type: ValueType.UINT32, value: contextLength },
    { key: "llama.embedding_length", type: ValueType.UINT32, value: embedding },
    { key: "llama.block_count", type: ValueType.UINT32, value: layers },
    { key: "llama.feed_forward_length", type: ValueType.UINT32, value: feedForward },
    { key: "llama.attention.head_count", type: ValueType.UINT32, value: heads },
    { key: "llama.attention.head_count_kv", type: ValueType.UINT32, value: heads },
    { key: "llama.attention.layer_norm_rms_epsilon", type: ValueType.FLOAT32, value: 1e-5 },
    { key: "llama.rope.dimension_count", type: ValueType.UINT32, value: embedding / heads },
    { key: "llama.vocab_size", type: ValueType.UINT32, value: tokens.length },
    { key: "tokenizer.ggml.model", type: ValueType.STRING, value: "llama" },
    { key: "tokenizer.ggml.tokens", type: ValueType.ARRAY, of: ValueType.STRING, value: tokens },
    { key: "tokenizer.ggml.scores", type: ValueType.ARRAY, of: ValueType.FLOAT32, value: scores },
    { key: "tokenizer.ggml.token_type", type: ValueType.ARRAY, of: ValueType.INT32, value: types },
    { key: "tokenizer.ggml.unknown_token_id", type: ValueType.UINT32, value: 0 },
    { key: "tokenizer.ggml.bos_token_id", type: ValueType.UINT32, value: 1 },
    { key: "tokenizer.ggml.eos_token_id", type: ValueType.UINT32, value: 2 },
  ];

  const vocab = tokens.length;
  const tensors: { name: string; dims: number[] }[] = [
    { name: "token_embd.weight", dims: [embedding, vocab] },
    { name: "output_norm.weight", dims: [embedding] },
    { name: "output.weight", dims: [embedding, vocab] },
  ];
  for (let i = 0; i < layers; i++) {
    tensors.push(
      { name: `blk.${i}.attn_norm.weight`, dims: [embedding] },
      { name: `blk.${i}.attn_q.weight`, dims: [embedding, embedding] },
      { name: `blk.${i}.attn_k.weight`, dims: [embedding, embedding] },
      { name: `blk.${i}.attn_v.weight`, dims: [embedding, embedding] },
      { name: `blk.${i}.attn_output.weight`, dims: [embedding, embedding] },
      { name: `blk.${i}.ffn_norm.weight`, dims: [embedding] },
      { name: `blk.${i}.ffn_gate.weight`, dims: [embedding, feedForward] },
      { name: `blk.${i}.ffn_down.weight`, dims: [feedForward, embedding] },
      { name: `blk.${i}.ffn_up.weight`, dims: [embedding, feedForward] },
    );
  }

  const out = new Writer();
  out.u32(GGUF_MAGIC);
  out.u32(3);
  out.u64(tensors.length);
  out.u64(meta.length);
  for (const entry of meta) {
    out.string(entry.key);
    out.u32(entry.type);
    switch (entry.type) {
      case ValueType.UINT32:
        out.u32(entry.value);
        break;
      case ValueType.INT32:
        out.i32(entry.value);
        break;
      case ValueType.FLOAT32:
        out.f32(entry.value);
        break;
      case ValueType.STRING:
        out.string(entry.value);
        break;
      case ValueType.ARRAY:
        out.u32(entry.of);
        out.u64(entry.value.length);
        for (const item of entry.value) {
          if (entry.of === ValueType.STRING) out.string(item as string);
          else if (entry.of === ValueType.INT32) out.i32(item as number);
          else out.f32(item as number);
        }
        break;
    }
  }
  const data: Buffer[] = [];
  let offset = 0;
  for (const tensor of tensors) {
    const count = tensor.dims.reduce((a, b) => a * b, 1);
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const dim of tensor.dims) out.u64(dim);
    out.u32(F32);
    out.u64(offset);
    const values = Buffer.alloc(count * 4);
    const isNorm = tensor.name.endsWith("norm.weight");
    for (let i = 0; i < count; i++) values.writeFloatLE(isNorm ? 1 : gaussian() * scale, i * 4);
    const padded = Math.ceil(values.length / ALIGNMENT) * ALIGNMENT;
    data.push(values, Buffer.alloc(padded - values.length));
    offset += padded;
  }
  out.pad();
  for (const chunk of data) out.raw(chunk);
  writeFileSync(path, out.toBuffer());
  return tokens;
}
