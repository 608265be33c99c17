/**
 * The Vercel Edge Function that serves the addresses of src/app.ts (vercel.json sends every
 * path here, so each address keeps its own path, /<name>).
 *
 * @module
 */
import app from "../src/app.ts";

/** Selects Vercel's Edge runtime for this function. */
export const config = { runtime: "edge" };

/** Answers one request. */
export default function handler(request: Request): Response | Promise<Response> {
  return app.fetch(request);
}
