/**
 * The browser of the browser tests: the Chromium build shipped inside the npm package
 * `@sparticuz/chromium` (pinned in the lock file, so `npm ci` brings it; nothing from the
 * system), driven by playwright-core. The first launch unpacks the binary into the temp folder.
 *
 * The package's own `chromium.args` are made for serverless functions and are not used: they
 * turn off web security (`--disable-web-security`, which would hide CORS from the tests) and run
 * in one process (`--single-process`, where closing a page can end the browser).
 */
import chromium from "@sparticuz/chromium";
import { type Browser, chromium as playwright } from "playwright-core";

/**
 * No sandbox (the tests run as root in a container), software GL, and nothing that reaches
 * the network of this closed machine (no update, sync or metrics calls).
 */
const ARGS = [
  "--no-sandbox",
  "--no-zygote",
  "--disable-setuid-sandbox",
  "--use-gl=angle",
  "--use-angle=swiftshader",
  "--no-default-browser-check",
  "--no-pings",
  "--disable-domain-reliability",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Starts a headless Chromium.
 *
 * @param features - Blink features to enable (`["WebMCP"]` for `document.modelContext`).
 * @throws the launch error of playwright-core when the binary cannot start (within 30 s).
 */
export async function launchChromium(features: readonly string[] = []): Promise<Browser> {
  const args = [...ARGS];
  if (features.length > 0) args.push(`--enable-features=${features.join(",")}`);
  return playwright.launch({ executablePath: await chromium.executablePath(), headless: true, timeout: 30_000, args });
}
