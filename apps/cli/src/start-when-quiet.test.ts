import { PassThrough } from "node:stream";
import { FakeClock } from "@clawtools/core/testing";
import { describe, expect, it } from "vitest";
import { startWhenQuiet } from "./start-when-quiet.js";

function setUp(options: { quietMs?: number; latestMs?: number } = {}) {
  const input = new PassThrough();
  input.resume();
  const clock = new FakeClock();
  let starts = 0;
  startWhenQuiet(input, () => starts++, { ...options, clock });
  return { input, clock, starts: () => starts };
}

describe("startWhenQuiet", () => {
  it("starts once the input has been silent for the quiet time, each chunk putting it off", () => {
    const { input, clock, starts } = setUp({ quietMs: 100 });
    clock.advance(90);
    input.write("initialize\n");
    clock.advance(90);
    input.write("tools/call\n");
    clock.advance(99);
    expect(starts()).toBe(0);
    clock.advance(1);
    expect(starts()).toBe(1);
    // once: later silence starts nothing more, and the listener is gone
    input.write("more\n");
    clock.advance(500);
    expect(starts()).toBe(1);
    expect(input.listenerCount("data")).toBe(0);
  });

  it("starts at the latest time however busy the input is", () => {
    const { input, clock, starts } = setUp({ quietMs: 100, latestMs: 1_000 });
    for (let t = 0; t < 990; t += 50) {
      input.write("ping\n");
      clock.advance(50);
    }
    expect(starts()).toBe(1);
  });

  it("starts nothing when the input ends first (serve is stopping)", () => {
    const { input, clock, starts } = setUp({ quietMs: 100 });
    input.end();
    return new Promise<void>((resolve) =>
      input.once("end", () => {
        clock.advance(5_000);
        expect(starts()).toBe(0);
        expect(input.listenerCount("data")).toBe(0);
        resolve();
      }),
    );
  });
});
