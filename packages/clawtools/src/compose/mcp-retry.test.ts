import { FakeClock } from "@clawtools/core/testing";
import { describe, expect, it } from "vitest";
import { retryUntilConnected } from "./mcp-retry.js";

/** A connection that records whether it was closed. */
const connection = () => {
  const c = {
    closed: false,
    close: async () => {
      c.closed = true;
    },
  };
  return c;
};

describe("retryUntilConnected", () => {
  it("waits 1 s, doubling up to the cap, until a try succeeds", async () => {
    const clock = new FakeClock();
    const waits: number[] = [];
    let tries = 0;
    const back = connection();
    let done: (value: typeof back) => void = () => {};
    const came = new Promise<typeof back>((resolve) => {
      done = resolve;
    });
    void retryUntilConnected(
      async () => {
        tries += 1;
        if (tries < 5) throw new Error(`down ${tries}`);
        return back;
      },
      (c) => done(c),
      { signal: new AbortController().signal, clock, firstDelayMs: 1000, maxDelayMs: 4000 },
    );
    for (let i = 0; i < 5; i++) {
      await clock.whenPending(1);
      const due = clock.nextDue()!;
      waits.push(due - clock.now());
      clock.runNext();
    }
    expect(await came).toBe(back);
    expect(waits).toEqual([1000, 2000, 4000, 4000, 4000]);
    expect(back.closed).toBe(false);
  });

  it("stops waiting when aborted, and closes a connection that answers after the abort", async () => {
    const clock = new FakeClock();
    const stop = new AbortController();
    const waiting = retryUntilConnected(
      async () => connection(),
      () => {
        throw new Error("must not be handed over");
      },
      { signal: stop.signal, clock },
    );
    await clock.whenPending(1);
    stop.abort();
    await waiting;
    expect(clock.pending).toBe(0);

    const late = connection();
    const stopLate = new AbortController();
    let release: () => void = () => {};
    const during = retryUntilConnected(
      () =>
        new Promise<typeof late>((resolve) => {
          release = () => resolve(late);
          stopLate.abort(); // serve stops while the try is under way
        }),
      () => {
        throw new Error("must not be handed over");
      },
      { signal: stopLate.signal, clock },
    );
    await clock.whenPending(1);
    clock.runNext();
    await expect.poll(() => stopLate.signal.aborted, { timeout: 10_000 }).toBe(true);
    release();
    await during;
    expect(late.closed).toBe(true);
  });

  it("starts no try once aborted, even when the wait ends in the same turn as the abort", async () => {
    const clock = new FakeClock();
    const stop = new AbortController();
    let tries = 0;
    const running = retryUntilConnected(
      async () => {
        tries += 1;
        return connection();
      },
      () => {
        throw new Error("must not be handed over");
      },
      { signal: stop.signal, clock },
    );
    await clock.whenPending(1);
    // the timer fires and serve stops before the loop's next step runs
    clock.runNext();
    stop.abort();
    await running;
    expect(tries).toBe(0);
  });

  it("hands the try the stop signal, and a try that gives up on it ends the loop", async () => {
    const clock = new FakeClock();
    const stop = new AbortController();
    let seen: AbortSignal | undefined;
    const running = retryUntilConnected(
      (signal) => {
        seen = signal;
        return new Promise<ReturnType<typeof connection>>((_resolve, reject) => {
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        });
      },
      () => {
        throw new Error("must not be handed over");
      },
      { signal: stop.signal, clock, onFailure: () => expect.unreachable("no failure after the stop") },
    );
    await clock.whenPending(1);
    clock.runNext();
    await expect.poll(() => seen, { timeout: 10_000 }).toBe(stop.signal);
    stop.abort();
    await running;
    expect(clock.pending).toBe(0);
  });
});
