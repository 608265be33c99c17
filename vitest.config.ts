import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import SummaryReporter from "./test/summary-reporter.ts";

export default defineConfig({
  test: {
    reporters: ["default", new SummaryReporter()],
    projects: [
      {
        test: {
          name: "node",
          environment: "node",
          include: ["test/node/**/*.test.ts"],
          testTimeout: 60_000,
        },
      },
      {
        test: { name: "edge", environment: "edge-runtime", include: ["test/edge/**/*.test.ts"] },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml" } })],
        test: { name: "workers", include: ["test/worker/**/*.test.ts"] },
      },
      {
        test: {
          name: "runtimes",
          environment: "node",
          include: ["test/runtimes/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
