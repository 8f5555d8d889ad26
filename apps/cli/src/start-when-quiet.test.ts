import { PassThrough } from "node:stream";
import { FakeClock } from "@clawtools/core/testing";
import { describe, expect, it } from "vitest";
import { startWhenQuiet } from "./start-when-quiet.js";

function setUp(options: { quietMs?: number; latestMs?: number } = {}) {
  const input = new PassThrough();
  input.resume();
  const clock = new FakeClock();
  let starts = 0;
  const watch = startWhenQuiet(input, () => starts++, { ...options, clock });
  return { input, clock, starts: () => starts, watch };
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

  it("waits while a request is unanswered: a call at work is not a quiet client", () => {
    const { input, clock, starts, watch } = setUp({ quietMs: 100, latestMs: 10_000 });
    input.write('{"jsonrpc":"2.0","id":1,"method":"initialize"}\n');
    clock.advance(50);
    watch.wrote();
    input.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    input.write('{"jsonrpc":"2.0","id":2,"method":"tools/call"}\n');
    // the call takes long: silence both ways, but its answer is still to come
    clock.advance(900);
    expect(starts()).toBe(0);
    watch.wrote();
    clock.advance(99);
    expect(starts()).toBe(0);
    clock.advance(1);
    expect(starts()).toBe(1);
  });

  it("a notification alone leaves nothing waiting", () => {
    const { input, clock, starts } = setUp({ quietMs: 100 });
    input.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    clock.advance(100);
    expect(starts()).toBe(1);
  });

  it("an unanswered request still starts at the latest time", () => {
    const { input, clock, starts } = setUp({ quietMs: 100, latestMs: 1_000 });
    input.write('{"jsonrpc":"2.0","id":7,"method":"tools/call"}\n');
    clock.advance(999);
    expect(starts()).toBe(0);
    clock.advance(1);
    expect(starts()).toBe(1);
  });

  it("starts nothing once cancelled (serve stopping), not even at the latest time", () => {
    const { input, clock, starts, watch } = setUp({ quietMs: 100, latestMs: 1_000 });
    input.write('{"jsonrpc":"2.0","id":7,"method":"tools/call"}\n');
    watch.cancel();
    clock.advance(5_000);
    expect(starts()).toBe(0);
    expect(input.listenerCount("data")).toBe(0);
  });
});
