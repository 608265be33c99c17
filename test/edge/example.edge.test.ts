/**
 * The example app inside Vercel's edge-runtime VM (vitest `environment: "edge-runtime"`): only
 * Web APIs exist here, so this proves the address path needs nothing else.
 */
import { describe, expect, it } from "vitest";
import { createExampleApp } from "../../examples/pages/app.ts";
import { MemoryPageStore } from "../../examples/pages/store.ts";
import duplicateMember from "../fixtures/page/invalid-duplicate-member.json?raw";
import releaseNotes from "../fixtures/page/valid-release-notes.json?raw";

const app = createExampleApp(() => new MemoryPageStore());
const post = (body: string) => app.request("http://edge.test/page", { method: "POST", body });

describe("the example app in edge-runtime", () => {
  it("runs in the edge VM", () => {
    expect(typeof (globalThis as { EdgeRuntime?: unknown }).EdgeRuntime).toBe("string");
  });

  it("A1 A2 serves the form", async () => {
    const response = await app.request("http://edge.test/page");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/json");
    expect(Object.keys(await response.json())).toEqual(["p", "m", "s"]);
  });

  it("R1 accepts a valid act; V2 R2 refuses the same page with one member written twice", async () => {
    const accepted = await post(releaseNotes);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ url: expect.stringMatching(/^http:\/\/edge\.test\/pages\//) });
    const refused = await post(duplicateMember);
    expect(refused.status).toBe(204);
    expect(await refused.text()).toBe("");
  });
});
