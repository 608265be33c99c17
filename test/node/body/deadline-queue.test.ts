/**
 * The deadlines of body reads on a Node message (src/body/deadline-queue.ts): one timer per
 * duration, with real timers.
 */
import { describe, expect, it } from "vitest";
import { deadlineQueue } from "../../../src/body/deadline-queue.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("deadlines of one duration under one timer", () => {
  it("each deadline not cleared is called once, not before its time, in the order set; cleared ones never", async () => {
    const queue = deadlineQueue(40);
    const called: { name: string; late: number }[] = [];
    const set = (name: string) => {
      const start = performance.now();
      return queue.set(() => called.push({ name, late: performance.now() - start }));
    };
    const a = set("a");
    const b = set("b");
    await sleep(15);
    set("c");
    const d = set("d");
    b.clear();
    d.clear();
    d.clear(); // again: nothing
    await sleep(90);
    expect(called.map(({ name }) => name)).toEqual(["a", "c"]);
    for (const { late } of called) expect(late).toBeGreaterThanOrEqual(39);
    a.clear(); // after it was called: nothing
    const e = set("e"); // on a queue whose timer found it empty: set anew
    await sleep(80);
    expect(called.map(({ name }) => name)).toEqual(["a", "c", "e"]);
    e.clear();
  });

  it("durations keep their own queues", async () => {
    const called: string[] = [];
    deadlineQueue(60).set(() => called.push("60"));
    deadlineQueue(20).set(() => called.push("20"));
    expect(deadlineQueue(20)).toBe(deadlineQueue(20));
    expect(deadlineQueue(20)).not.toBe(deadlineQueue(60));
    await sleep(110);
    expect(called).toEqual(["20", "60"]);
  });
});
