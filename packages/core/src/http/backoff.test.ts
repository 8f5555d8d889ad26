import { describe, expect, it } from "vitest";
import { FakeClock } from "../testing/fake-clock.js";
import { backoffDelay, backoffPause, retryWithBackoff } from "./backoff.js";

describe("backoffPause", () => {
  it("grows by the factor up to the cap; exact without jitter, between half and all with it", () => {
    const exact = [1, 2, 3, 4, 5].map((n) => backoffPause(n, { baseMs: 50, factor: 4, jitter: "none" }));
    expect(exact).toEqual([50, 200, 800, 3200, 12800]);
    const capped = [1, 2, 3, 4, 5, 6].map((n) => backoffPause(n, { baseMs: 5, maxMs: 200, jitter: "none" }));
    expect(capped).toEqual([5, 10, 20, 40, 80, 160].map((v) => Math.min(v, 200)));
    expect(backoffPause(3, { baseMs: 100, random: () => 0 })).toBe(200);
    expect(backoffPause(3, { baseMs: 100, random: () => 1 })).toBe(400);
    expect(backoffDelay(3, 100, 300, () => 1)).toBe(300);
  });
});

describe("retryWithBackoff", () => {
  it("tries again after each failure on the schedule, telling onRetry, until one succeeds", async () => {
    const clock = new FakeClock();
    const told: Array<[string, number, number]> = [];
    const done = retryWithBackoff(
      async (attempt) => {
        if (attempt < 3) throw new Error(`down ${attempt}`);
        return `up on ${attempt}`;
      },
      {
        baseMs: 100,
        jitter: "none",
        clock,
        onRetry: (error, wait, attempt) => {
          told.push([(error as Error).message, wait, attempt]);
        },
      },
    );
    const waits: number[] = [];
    for (let i = 0; i < 2; i++) {
      await clock.whenPending(1);
      waits.push(clock.nextDue()! - clock.now());
      clock.runNext();
    }
    expect(await done).toBe("up on 3");
    expect(waits).toEqual([100, 200]);
    expect(told).toEqual([
      ["down 1", 100, 1],
      ["down 2", 200, 2],
    ]);
  });

  it("throws the last failure when the tries run out, and a failure that is not retryable at once", async () => {
    let tries = 0;
    await expect(
      retryWithBackoff(
        async () => {
          tries++;
          throw new Error(`down ${tries}`);
        },
        { attempts: 3, baseMs: 0 },
      ),
    ).rejects.toThrow("down 3");
    tries = 0;
    await expect(
      retryWithBackoff(
        async () => {
          tries++;
          throw new Error("refused");
        },
        { baseMs: 0, retryable: (e) => (e as Error).message !== "refused" },
      ),
    ).rejects.toThrow("refused");
    expect(tries).toBe(1);
  });

  it("stops waiting when the signal aborts, and starts no try after it", async () => {
    const clock = new FakeClock();
    const stop = new AbortController();
    let tries = 0;
    const done = retryWithBackoff(
      async () => {
        tries++;
        throw new Error("down");
      },
      { baseMs: 1000, clock, signal: stop.signal },
    );
    await clock.whenPending(1);
    stop.abort(new Error("stopped"));
    await expect(done).rejects.toThrow("stopped");
    expect(tries).toBe(1);
    expect(clock.pending).toBe(0);
  });
});
