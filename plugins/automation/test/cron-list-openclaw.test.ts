import { findOpenclawReference, runOpenclawReference } from "@clawtools/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCronTool } from "../src/tools/cron.js";
import { type Harness, harness } from "./helpers.js";

// cron list beside OpenClaw 9.6: its cron tool asks the Gateway for cron.list with compact: true,
// and the Gateway's handler projects each job to a summary. The same jobs (as `get` answers them
// here) go through 9.6's own cron.list handler; the summaries must be the same.

const ref = findOpenclawReference();

const OPENCLAW_SCRIPT = `
const { cronHandlers } = await chunk("cron-", "function compactCronListJob(");
let answer;
await cronHandlers["cron.list"]({
  params: { includeDisabled: true, compact: true },
  respond: (ok, payload, error) => { answer = { ok, payload, error }; },
  context: {
    cron: { listPage: async () => input.page, getDefaultAgentId: () => "main" },
    getRuntimeConfig: () => ({}),
  },
  client: undefined,
});
reply(answer);
`;

describe("cron list: OpenClaw 9.6's compact summaries; get has the full job", () => {
  let h: Harness;
  let call: (args: Record<string, unknown>) => Promise<any>;

  beforeAll(async () => {
    h = await harness({ nowMs: Date.parse("2026-02-01T00:00:00Z") });
    const tool = createCronTool(
      { agentId: "main", sessionKey: "agent:main:main" },
      { service: async () => h.service },
    );
    call = async (args) => (await tool.execute("c", args as never)).details;
    await call({
      action: "add",
      job: {
        name: "morning report",
        description: "Summarise yesterday's deploys and incidents for the team channel. ".repeat(6),
        schedule: { kind: "cron", expr: "0 9 * * 1-5", tz: "Europe/Berlin" },
        sessionTarget: "isolated",
        payload: {
          kind: "agentTurn",
          message: "Read the deploy log and the incident tracker, then write the report. ".repeat(12),
        },
        delivery: { mode: "webhook", to: "https://hooks.example/report" },
      },
    });
    const ping = await call({
      action: "add",
      job: {
        name: "heartbeat",
        schedule: { kind: "every", everyMs: 3_600_000 },
        payload: { kind: "systemEvent", text: "check the queue" },
      },
    });
    await call({
      action: "add",
      job: {
        name: "one-off",
        enabled: false,
        schedule: { kind: "at", at: "2026-03-01T12:00:00Z" },
        payload: { kind: "systemEvent", text: "renew the certificate" },
      },
    });
    // a job that has run: the summary carries its last run
    await call({ action: "run", jobId: ping.id });
    await h.service.idle();
  });
  afterAll(async () => h?.service.stop());

  it("list answers summaries without payload, delivery or description; get answers everything", async () => {
    const listed = await call({ action: "list", includeDisabled: true });
    expect(listed.jobs.map((j: { name: string }) => j.name).sort()).toEqual([
      "heartbeat",
      "morning report",
      "one-off",
    ]);
    for (const job of listed.jobs) {
      expect(job).not.toHaveProperty("payload");
      expect(job).not.toHaveProperty("delivery");
      expect(job).not.toHaveProperty("description");
      expect(job).not.toHaveProperty("state");
      const full = await call({ action: "get", jobId: job.id });
      expect(full.payload).toBeDefined();
      expect(full.schedule).toEqual(job.schedule);
      expect(job.nextRunAtMs).toBe(full.state.nextRunAtMs ?? null);
    }
    // 9.6's cron tool adds which inventory the page counts ("gateway": every job, as a turn with
    // management authority sees it; "caller" and a scopeHint only where the Gateway narrows it)
    expect(listed.scope).toBe("gateway");
    expect(listed).not.toHaveProperty("scopeHint");
    const ran = listed.jobs.find((j: { name: string }) => j.name === "heartbeat");
    expect(ran).toMatchObject({ lastRunStatus: "ok", lastRunError: null, effectiveAgentId: "main" });
    expect(ran.lastRunAt).toBe(new Date(ran.lastRunAtMs).toISOString());
  });

  it.skipIf("skip" in ref)(
    "each summary is the one OpenClaw 9.6's cron.list handler makes of the same job",
    async () => {
      if ("skip" in ref) return;
      // the handler's page; the scope is the tool's own field on top of it
      const { scope: _scope, ...listed } = await call({ action: "list", includeDisabled: true });
      const full = await Promise.all(
        listed.jobs.map((j: { id: string }) => call({ action: "get", jobId: j.id })),
      );
      const page = { ...listed, jobs: full };
      const theirs = await runOpenclawReference<{ ok: boolean; payload: unknown; error?: unknown }>(
        ref,
        OPENCLAW_SCRIPT,
        {
          page,
        },
      );
      expect(theirs.ok, JSON.stringify(theirs.error)).toBe(true);
      expect(listed).toEqual(theirs.payload);
    },
  );
});
