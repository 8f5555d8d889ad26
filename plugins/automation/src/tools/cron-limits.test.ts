import { afterEach, describe, expect, it } from "vitest";
import { harness } from "../../test/helpers.js";
import { createCronTool } from "./cron.js";

// out-of-range values are refused with a message naming the value and the range, never clamped
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function setup() {
  const h = await harness({ nowMs: Date.parse("2026-02-01T00:00:00Z") });
  stops.push(() => h.service.stop());
  const tool = createCronTool(
    { agentId: "main", sessionKey: "agent:main:main" },
    { service: async () => h.service },
  );
  const call = async (args: Record<string, unknown>) =>
    (await tool.execute("c", args as never)).details as any;
  const fails = (args: Record<string, unknown>) => tool.execute("c", args as never);
  return { h, call, fails };
}

const every = { kind: "every", everyMs: 60_000 };

describe("cron tool: limits", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    [
      "every below the minimum interval",
      { action: "add", job: { schedule: { kind: "every", everyMs: 1 }, payload: { text: "t" } } },
      "invalid cron.add params: schedule.everyMs 1 is below the minimum interval of 1000 ms (1 s)",
    ],
    [
      "every far too large",
      { action: "add", job: { schedule: { kind: "every", everyMs: 1e300 }, payload: { text: "t" } } },
      "invalid cron.add params: schedule.everyMs 1e+300 is above the maximum interval of 315360000000 ms (10 years)",
    ],
    [
      "every not finite",
      { action: "add", job: { schedule: { kind: "every", everyMs: "Infinity" }, payload: { text: "t" } } },
      'invalid cron.add params: schedule.kind="every" requires schedule.everyMs (ms, >= 1000)',
    ],
    [
      "anchorMs out of range",
      {
        action: "add",
        job: { schedule: { kind: "every", everyMs: 60_000, anchorMs: -5 }, payload: { text: "t" } },
      },
      "invalid cron.add params: schedule.anchorMs must be epoch ms between 0 and 8640000000000000 (got -5)",
    ],
    [
      "staggerMs out of range",
      {
        action: "add",
        job: { schedule: { kind: "cron", expr: "0 9 * * *", staggerMs: 1e12 }, payload: { text: "t" } },
      },
      "invalid cron.add params: schedule.staggerMs must be between 0 and 86400000 ms (got 1000000000000)",
    ],
    [
      "timeoutSeconds too large",
      {
        action: "add",
        job: { schedule: every, payload: { message: "m", timeoutSeconds: 1e9 }, delivery: { mode: "none" } },
      },
      "invalid cron.add params: payload.timeoutSeconds must be at most 86400 (24 h) (got 1000000000)",
    ],
    [
      "every below the minimum interval (update)",
      { action: "update", jobId: "JOB", patch: { schedule: { everyMs: 10 } } },
      "invalid cron.update params: schedule.everyMs 10 is below the minimum interval of 1000 ms (1 s)",
    ],
    ["negative limit", { action: "list", limit: -1 }, "limit must be an integer from 1 to 500 (got -1)"],
    ["limit too large", { action: "list", limit: 501 }, "limit must be an integer from 1 to 500 (got 501)"],
    [
      "fractional limit",
      { action: "runs", jobId: "x", limit: 2.5 },
      "limit must be an integer from 1 to 200 (got 2.5)",
    ],
    [
      "negative offset",
      { action: "list", offset: -3 },
      "offset must be an integer from 0 to 9007199254740991 (got -3)",
    ],
    [
      "negative timeoutMs",
      { action: "status", timeoutMs: -1 },
      "timeoutMs must be from 0 to 600000 (got -1)",
    ],
  ];
  for (const [name, given, message] of cases) {
    it(name, async () => {
      const { h, call, fails } = await setup();
      let args = given;
      if (given.jobId === "JOB") {
        const job = await call({ action: "add", job: { schedule: every, payload: { text: "t" } } });
        args = { ...given, jobId: job.id };
      }
      const before = JSON.stringify(await h.store.list());
      await expect(fails(args)).rejects.toMatchObject({ name: "ToolInputError", message });
      // nothing was stored or changed
      expect(JSON.stringify(await h.store.list())).toBe(before);
    });
  }

  it("a job every 1 s (the minimum) is accepted and fires each second", async () => {
    const { h, call } = await setup();
    const job = await call({
      action: "add",
      job: { schedule: { kind: "every", everyMs: 1_000 }, payload: { text: "t" } },
    });
    await h.advance(3_000);
    expect(await h.fireTimes(job.id)).toHaveLength(3);
  });
});
