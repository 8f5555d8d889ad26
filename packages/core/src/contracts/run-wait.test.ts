import { describe, expect, it } from "vitest";
import { FakeClock } from "../testing/index.js";
import type { RunOutcome } from "./agent-runner.js";
import { waitForRun } from "./run-wait.js";

describe("waitForRun", () => {
  it("answers running when the run has not ended within the wait, on the given clock", async () => {
    const clock = new FakeClock();
    const answer = waitForRun({ done: new Promise<RunOutcome>(() => {}) }, "r1", 30_000, clock);
    await clock.whenPending(1);
    clock.advance(30_000);
    await expect(answer).resolves.toEqual({ status: "running" });
    expect(clock.pending).toBe(0);
  });

  it("answers the outcome when the run ends first, and an unknown run as an error", async () => {
    const clock = new FakeClock();
    const outcome: RunOutcome = { status: "ok", reply: "done" } as RunOutcome;
    await expect(waitForRun({ done: Promise.resolve(outcome) }, "r1", 10, clock)).resolves.toEqual(outcome);
    expect(clock.pending).toBe(0);
    await expect(waitForRun(undefined, "r2", 10, clock)).resolves.toEqual({
      status: "error",
      error: "Unknown run: r2",
    });
  });

  it("treats a wait that is not a duration as no wait", async () => {
    await expect(waitForRun({ done: new Promise<RunOutcome>(() => {}) }, "r", Number.NaN)).resolves.toEqual({
      status: "running",
    });
  });
});
