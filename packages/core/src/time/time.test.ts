import { describe, expect, it } from "vitest";
import { FakeClock } from "../testing/index.js";
import { backgroundClock, delay, isTimeoutError, systemClock, TimeoutError, withTimeout } from "./index.js";

describe("delay", () => {
  it("resolves when the clock reaches the wait", async () => {
    const clock = new FakeClock();
    let done = false;
    const wait = delay(1_000, { clock }).then(() => {
      done = true;
    });
    clock.advance(999);
    await Promise.resolve();
    expect(done).toBe(false);
    clock.advance(1);
    await wait;
    expect(done).toBe(true);
    expect(clock.pending).toBe(0);
  });

  it("rejects with the signal's reason and clears its timer", async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const wait = delay(1_000, { clock, signal: controller.signal });
    expect(clock.pending).toBe(1);
    controller.abort(new Error("stop"));
    await expect(wait).rejects.toThrow("stop");
    expect(clock.pending).toBe(0);
  });

  it("rejects at once on an aborted signal, setting no timer", async () => {
    const clock = new FakeClock();
    await expect(delay(5, { clock, signal: AbortSignal.abort(new Error("gone")) })).rejects.toThrow("gone");
    expect(clock.pending).toBe(0);
  });

  it("refuses a wait that is not a duration", () => {
    expect(() => delay(-1)).toThrow(/delay must be a non-negative number of milliseconds, got -1/);
    expect(() => delay(Number.NaN)).toThrow(/got NaN/);
    expect(() => delay(Number.POSITIVE_INFINITY)).toThrow(/finite/);
  });

  it("waits on real time with the system clock", async () => {
    await expect(delay(1)).resolves.toBeUndefined();
  });
});

describe("withTimeout", () => {
  it("settles with the work and releases its timer", async () => {
    const clock = new FakeClock();
    await expect(withTimeout(Promise.resolve(7), 100, { clock })).resolves.toBe(7);
    expect(clock.pending).toBe(0);
    await expect(withTimeout(Promise.reject(new Error("bad")), 100, { clock })).rejects.toThrow("bad");
    expect(clock.pending).toBe(0);
  });

  it("fails with a branded TimeoutError naming what and how long, aborting the work's signal", async () => {
    const clock = new FakeClock();
    let seen: AbortSignal | undefined;
    const result = withTimeout(
      (signal) => {
        seen = signal;
        return new Promise<never>(() => {});
      },
      250,
      { clock, what: "approval" },
    );
    clock.advance(250);
    const error = await result.catch((e: unknown) => e);
    expect(isTimeoutError(error)).toBe(true);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toBe("approval timed out after 250 ms");
    expect((error as TimeoutError).what).toBe("approval");
    expect((error as TimeoutError).ms).toBe(250);
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBe(error);
  });

  it("recognises a TimeoutError from another copy of core by its brand", () => {
    const foreign = Object.assign(new Error("x"), { [Symbol.for("clawtools.error.TimeoutError")]: true });
    expect(isTimeoutError(foreign)).toBe(true);
    expect(foreign instanceof TimeoutError).toBe(true);
    expect(isTimeoutError(new Error("x"))).toBe(false);
  });

  it("takes a whole message, or a fallback on timeout", async () => {
    const clock = new FakeClock();
    const never = new Promise<string>(() => {});
    const withMessage = withTimeout(never, 10, { clock, message: "no reply from the agent" });
    const withFallback = withTimeout(never, 10, { clock, onTimeout: () => "fallback" });
    clock.advance(10);
    await expect(withMessage).rejects.toThrow(/^no reply from the agent$/);
    await expect(withFallback).resolves.toBe("fallback");
  });

  it("aborts the work with the caller's reason when the caller's signal aborts first", async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    let inner: AbortSignal | undefined;
    const result = withTimeout(
      (signal) => {
        inner = signal;
        return new Promise<never>(() => {});
      },
      1_000,
      { clock, signal: controller.signal },
    );
    controller.abort(new Error("user cancelled"));
    await expect(result).rejects.toThrow("user cancelled");
    expect(inner?.reason).toEqual(new Error("user cancelled"));
    expect(clock.pending).toBe(0);
  });

  it("never settles twice: work finishing after the timeout is ignored", async () => {
    const clock = new FakeClock();
    let finish!: (v: number) => void;
    const result = withTimeout(new Promise<number>((r) => (finish = r)), 5, { clock });
    clock.advance(5);
    finish(1);
    await expect(result).rejects.toSatisfy(isTimeoutError);
  });

  it("runs without a timer for Infinity and turns a synchronous throw into a rejection", async () => {
    const clock = new FakeClock();
    await expect(withTimeout(Promise.resolve("ok"), Number.POSITIVE_INFINITY, { clock })).resolves.toBe("ok");
    const throwing = () => {
      throw new Error("sync");
    };
    await expect(withTimeout(throwing, 5, { clock })).rejects.toThrow("sync");
    expect(clock.pending).toBe(0);
    expect(() => withTimeout(Promise.resolve(1), -5)).toThrow(/timeout must be a non-negative number/);
  });
});

describe("clocks", () => {
  it("the background clock's timer does not hold the process, the system clock's does", () => {
    const background = backgroundClock.setTimeout(() => {}, 60_000) as NodeJS.Timeout;
    const held = systemClock.setTimeout(() => {}, 60_000) as NodeJS.Timeout;
    expect(background.hasRef()).toBe(false);
    expect(held.hasRef()).toBe(true);
    backgroundClock.clearTimeout(background);
    systemClock.clearTimeout(held);
  });

  it("chains a wait longer than Node's timer limit instead of firing after 1 ms", () => {
    let fired = false;
    const handle = systemClock.setTimeout(
      () => {
        fired = true;
      },
      2 ** 31 + 10,
    );
    expect(typeof handle).toBe("object");
    systemClock.clearTimeout(handle);
    expect(fired).toBe(false);
  });
});

describe("FakeClock", () => {
  it("fires in due order, including timers set while advancing, and reports pending ones", async () => {
    const clock = new FakeClock(1_000);
    const order: string[] = [];
    clock.setTimeout(() => order.push("b"), 20);
    clock.setTimeout(() => {
      order.push("a");
      clock.setTimeout(() => order.push("a2"), 5);
    }, 10);
    const proof = clock.whenPending(3);
    clock.setTimeout(() => order.push("late"), 100);
    await proof;
    expect(clock.nextDue()).toBe(1_010);
    clock.advance(30);
    expect(order).toEqual(["a", "a2", "b"]);
    expect(clock.now()).toBe(1_030);
    expect(clock.pending).toBe(1);
    expect(clock.runNext()).toBe(true);
    expect(clock.now()).toBe(1_100);
    expect(clock.runNext()).toBe(false);
  });

  it("advanceAsync drives a loop that awaits one wait before setting the next", async () => {
    const clock = new FakeClock();
    let rounds = 0;
    const loop = (async () => {
      for (let i = 0; i < 3; i++) {
        await delay(100, { clock });
        rounds++;
      }
    })();
    await clock.advanceAsync(300);
    await loop;
    expect(rounds).toBe(3);
  });
});
