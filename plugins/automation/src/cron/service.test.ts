import path from "node:path";
import { FileSessionStore } from "@clawtools/sessions";
import { afterEach, describe, expect, it, vi } from "vitest";
import { gate, harness, orphanClaims, ScriptedRunner, tempDir } from "../../test/helpers.js";
import { CronExecutor } from "./executor.js";
import { systemClock } from "./interfaces.js";
import { staggerOffsetMs } from "./schedule.js";
import { CronService, INTERRUPTED_ERROR, MISSED_ERROR } from "./service.js";
import { FileCronStore } from "../store/file-store.js";
import { FakeClock } from "../testing.js";

const T = (s: string) => Date.parse(s);
const iso = (ms: number) => new Date(ms).toISOString();
const MAIN = "agent:main:main";
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function make(options: Parameters<typeof harness>[0] = {}) {
  const h = await harness(options);
  stops.push(() => h.service.stop());
  return h;
}

const systemEvent = (schedule: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  schedule,
  payload: { kind: "systemEvent", text: "ping" },
  ...extra,
});
const agentTurn = (schedule: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  schedule,
  payload: { kind: "agentTurn", message: "summarise the inbox" },
  delivery: { mode: "none" },
  ...extra,
});

describe("schedule kinds under a fake clock", () => {
  it("every: fires on each interval from the anchor", async () => {
    const h = await make();
    const start = h.clock.now();
    const job = await h.service.add(
      systemEvent({ kind: "every", everyMs: 60_000, anchorMs: start + 15_000 }),
    );
    await h.advance(200_000);
    expect((await h.fireTimes(job.id)).map((t) => t - start)).toEqual([15_000, 75_000, 135_000, 195_000]);
    const messages = await h.sessions.history(MAIN);
    expect(messages.map((m) => m.content)).toEqual([
      "System: ping",
      "System: ping",
      "System: ping",
      "System: ping",
    ]);
  });

  it("at: fires once at its time, then the one-shot is deleted (deleteAfterRun defaults to true)", async () => {
    const h = await make({ nowMs: T("2026-03-01T09:00:00Z") });
    const job = await h.service.add(systemEvent({ kind: "at", at: "2026-03-01T10:00:00" }));
    expect(job.deleteAfterRun).toBe(true);
    expect(job.state.nextRunAtMs).toBe(T("2026-03-01T10:00:00Z"));
    await h.advance(3_599_999);
    expect(await h.sessions.history(MAIN)).toEqual([]);
    await h.advance(1);
    expect((await h.sessions.history(MAIN)).map((m) => [m.content, m.timestamp])).toEqual([
      ["System: ping", T("2026-03-01T10:00:00Z")],
    ]);
    expect(await h.store.get(job.id)).toBeUndefined();
    await h.advance(86_400_000);
    expect(await h.sessions.history(MAIN)).toHaveLength(1);
  });

  it("at with deleteAfterRun false: kept, turned off, its run logged", async () => {
    const h = await make({ nowMs: T("2026-03-01T09:00:00Z") });
    const job = await h.service.add(
      systemEvent({ kind: "at", at: "2026-03-01T09:30:00Z" }, { deleteAfterRun: false }),
    );
    await h.advance(3_600_000);
    const after = await h.store.get(job.id);
    expect(after?.enabled).toBe(false);
    expect(after?.state).toMatchObject({ lastRunStatus: "ok", lastRunAtMs: T("2026-03-01T09:30:00Z") });
    expect(after?.state.nextRunAtMs).toBeUndefined();
    expect(await h.fireTimes(job.id)).toEqual([T("2026-03-01T09:30:00Z")]);
  });

  it("cron with tz: fires at the zone's wall time", async () => {
    const h = await make({ nowMs: T("2026-01-10T00:00:00Z") });
    const job = await h.service.add(systemEvent({ kind: "cron", expr: "0 9 * * *", tz: "Asia/Tokyo" }));
    await h.advance(2 * 86_400_000);
    expect((await h.fireTimes(job.id)).map(iso)).toEqual([
      "2026-01-11T00:00:00.000Z",
      "2026-01-12T00:00:00.000Z",
    ]);
  });

  it("cron across the spring-forward gap: 02:30 New York runs at 03:30 EDT that day", async () => {
    const h = await make({ nowMs: T("2026-03-07T12:00:00Z") });
    const job = await h.service.add(
      systemEvent({ kind: "cron", expr: "30 2 * * *", tz: "America/New_York" }),
    );
    await h.advance(2 * 86_400_000);
    expect((await h.fireTimes(job.id)).map(iso)).toEqual([
      "2026-03-08T07:30:00.000Z",
      "2026-03-09T06:30:00.000Z",
    ]);
  });

  it("cron across the fall-back overlap: 01:30 New York runs once, at the first 01:30", async () => {
    const h = await make({ nowMs: T("2026-10-31T12:00:00Z") });
    const job = await h.service.add(
      systemEvent({ kind: "cron", expr: "30 1 * * *", tz: "America/New_York" }),
    );
    await h.advance(2 * 86_400_000);
    expect((await h.fireTimes(job.id)).map(iso)).toEqual([
      "2026-11-01T05:30:00.000Z",
      "2026-11-02T06:30:00.000Z",
    ]);
  });

  it("stagger: an hourly job fires at its fixed offset into the hour", async () => {
    const h = await make({ nowMs: T("2026-01-10T10:00:00Z"), service: { newId: () => "hourly-job" } });
    const job = await h.service.add(
      systemEvent({ kind: "cron", expr: "0 * * * *", tz: "UTC", staggerMs: 600_000 }),
    );
    const offset = staggerOffsetMs("hourly-job", 600_000);
    await h.advance(2 * 3_600_000);
    expect(await h.fireTimes(job.id)).toEqual([
      T("2026-01-10T10:00:00Z") + offset,
      T("2026-01-10T11:00:00Z") + offset,
    ]);
  });
});

describe("failures and bounds", () => {
  it("backs off after errors (30 s, 1 min, 5 min) and resets after a success", async () => {
    const runner = new ScriptedRunner([
      { status: "error", error: "model refused" },
      { status: "error", error: "model refused" },
      { status: "error", error: "model refused" },
    ]);
    const h = await make({ runner });
    const start = h.clock.now();
    const job = await h.service.add(agentTurn({ kind: "every", everyMs: 10_000 }));
    await h.advance(420_000);
    expect((await h.fireTimes(job.id)).map((t) => (t - start) / 1000)).toEqual([10, 40, 100, 400, 410, 420]);
    const runs = (await h.store.readRuns(job.id)).entries.reverse();
    expect(runs.map((r) => r.status)).toEqual(["error", "error", "error", "ok", "ok", "ok"]);
    expect(runs[0]).toMatchObject({ error: "model refused", nextRunAtMs: start + 40_000 });
    expect((await h.store.get(job.id))?.state.consecutiveErrors).toBe(0);
  });

  it("a one-shot retries a transient error after the backoff, then is deleted", async () => {
    const runner = new ScriptedRunner([{ status: "error", error: "429 rate limit" }]);
    const h = await make({ runner });
    const at = h.clock.now() + 1_000;
    const job = await h.service.add(agentTurn({ kind: "at", at: iso(at) }));
    await h.advance(1_000);
    expect((await h.store.get(job.id))?.state.nextRunAtMs).toBe(at + 30_000);
    await h.advance(30_000);
    expect(await h.store.get(job.id)).toBeUndefined();
    expect(runner.calls).toHaveLength(2);
  });

  it("deleteAfterRun removes a recurring job after its first successful run", async () => {
    const h = await make();
    const job = await h.service.add(
      systemEvent({ kind: "every", everyMs: 60_000 }, { deleteAfterRun: true }),
    );
    await h.advance(300_000);
    expect(await h.store.get(job.id)).toBeUndefined();
    expect(await h.sessions.history(MAIN)).toHaveLength(1);
  });

  it("never runs more than maxConcurrentRuns at once", async () => {
    const gates = [gate(), gate(), gate(), gate()];
    let active = 0;
    let peak = 0;
    const runner = new ScriptedRunner(
      gates.map((g) => async () => {
        active++;
        peak = Math.max(peak, active);
        await g.promise;
        active--;
        return { status: "ok" as const, reply: "done" };
      }),
    );
    const h = await make({ runner, service: { maxConcurrentRuns: 2 } });
    for (let i = 0; i < 4; i++)
      await h.service.add(agentTurn({ kind: "at", at: iso(h.clock.now() + 1_000) }));
    await h.clock.advance(1_000);
    await vi.waitFor(() => expect(runner.calls).toHaveLength(2));
    expect(active).toBe(2);
    gates[0]!.open();
    await vi.waitFor(() => expect(runner.calls).toHaveLength(3));
    for (const g of gates) g.open();
    await h.service.idle();
    expect(runner.calls).toHaveLength(4);
    expect(peak).toBe(2);
    expect(await h.store.list()).toEqual([]);
  });

  it("records a run's status when it finishes, not when it starts", async () => {
    const g = gate();
    const runner = new ScriptedRunner([
      async () => {
        await g.promise;
        return { status: "ok", reply: "all clear" };
      },
    ]);
    const h = await make({ runner });
    const job = await h.service.add(agentTurn({ kind: "every", everyMs: 60_000 }));
    await h.clock.advance(60_000);
    await vi.waitFor(() => expect(runner.calls).toHaveLength(1));
    const during = await h.store.get(job.id);
    expect(during?.state.runningAtMs).toBe(job.createdAtMs + 60_000);
    expect(during?.state.lastRunStatus).toBeUndefined();
    expect((await h.store.readRuns(job.id)).total).toBe(0);
    expect(await h.service.run(job.id)).toEqual({ ok: true, ran: false, reason: "already-running" });
    g.open();
    await h.service.idle();
    const after = await h.store.get(job.id);
    expect(after?.state).toMatchObject({ lastRunStatus: "ok", nextRunAtMs: job.createdAtMs + 120_000 });
    expect(after?.state.runningAtMs).toBeUndefined();
    expect((await h.store.readRuns(job.id)).entries[0]).toMatchObject({
      jobId: job.id,
      action: "finished",
      status: "ok",
      summary: "all clear",
      delivered: false,
      deliveryStatus: "not-requested",
      runAtMs: job.createdAtMs + 60_000,
      durationMs: 0,
    });
  });
});

describe("restarts", () => {
  it("catchUp once: a job missed while down runs once on start, then keeps its schedule", async () => {
    const dir = tempDir();
    const first = await make({ dir });
    const start = first.clock.now();
    const job = await first.service.add(systemEvent({ kind: "every", everyMs: 60_000 }));
    await first.service.stop();
    // the process is down for ten minutes: nine runs missed
    const second = await make({ dir, nowMs: start + 600_000 });
    await second.advance(0);
    expect(await second.fireTimes(job.id)).toEqual([start + 600_000]);
    await second.advance(59_999);
    expect(await second.fireTimes(job.id)).toEqual([start + 600_000]);
    await second.advance(1);
    expect(await second.fireTimes(job.id)).toEqual([start + 600_000, start + 660_000]);
    expect(await second.sessions.history(MAIN)).toHaveLength(2);
  });

  it("catchUp off: a missed job is logged as skipped and waits for its next time", async () => {
    const dir = tempDir();
    const first = await make({ dir });
    const start = first.clock.now();
    const job = await first.service.add(systemEvent({ kind: "every", everyMs: 60_000 }));
    await first.service.stop();
    const second = await make({ dir, nowMs: start + 600_000 + 500, service: { catchUp: "off" } });
    await second.advance(0);
    const runs = await second.store.readRuns(job.id);
    expect(runs.entries).toEqual([
      {
        ts: start + 600_500,
        jobId: job.id,
        action: "finished",
        status: "skipped",
        error: MISSED_ERROR,
        runAtMs: start + 60_000,
      },
    ]);
    expect((await second.store.get(job.id))?.state.nextRunAtMs).toBe(start + 660_000);
    expect(await second.sessions.history(MAIN)).toEqual([]);
  });

  it("a run cut off by a crash is recorded as interrupted, and 'already running' does not survive", async () => {
    const dir = tempDir();
    const hung = new ScriptedRunner([() => new Promise(() => {})]);
    const first = await harness({ dir, runner: hung });
    const start = first.clock.now();
    const job = await first.service.add(agentTurn({ kind: "every", everyMs: 3_600_000 }));
    await first.clock.advance(3_600_000, () => first.service.idle({ runs: false }));
    await vi.waitFor(() => expect(hung.calls).toHaveLength(1));
    expect((await first.store.get(job.id))?.state.runningAtMs).toBe(start + 3_600_000);
    // the claim reaches the disk (the journal beside jobs.json): a second store on the files sees it
    const onDisk = async () => (await new FileCronStore(path.join(dir, "cron")).get(job.id))?.state;
    await vi.waitFor(async () => expect((await onDisk())?.runningAtMs).toBe(start + 3_600_000));
    // the process dies here (nothing more is written by it; its claim is a dead process's); a
    // new one starts on the same files
    await first.service.stop().catch(() => {});
    orphanClaims(dir);
    const second = await make({ dir, nowMs: start + 3_700_000, service: { catchUp: "off" } });
    const entries = (await second.store.readRuns(job.id)).entries;
    expect(entries[entries.length - 1]).toEqual({
      ts: start + 3_700_000,
      jobId: job.id,
      action: "finished",
      status: "interrupted",
      error: INTERRUPTED_ERROR,
      runAtMs: start + 3_600_000,
      sessionKey: job.sessionKey,
    });
    const state = (await second.store.get(job.id))?.state;
    expect(state).toMatchObject({ lastRunStatus: "interrupted", lastError: INTERRUPTED_ERROR });
    expect(state?.runningAtMs).toBeUndefined();
    const run = await second.service.run(job.id);
    expect(run).toEqual({ ok: true, enqueued: true, runId: expect.any(String) });
    await second.service.idle();
    expect((await second.store.readRuns(job.id, { limit: 1 })).entries[0]).toMatchObject({
      runId: (run as { runId: string }).runId,
      status: "ok",
      summary: "done",
    });
    expect(second.runner.calls).toHaveLength(1);
  });
});

describe("restarts: a finished run whose state was not yet stored", () => {
  it("is restored from its run log line, not recorded as interrupted", async () => {
    const dir = tempDir();
    const first = await make({ dir });
    const start = first.clock.now();
    const job = await first.service.add(systemEvent({ kind: "every", everyMs: 60_000 }));
    await first.service.stop();
    // as after a crash between the run's log line and the lazy write of its state
    await first.store.upsert({ ...job, state: { nextRunAtMs: start + 60_000, runningAtMs: start + 60_000 } });
    await first.store.appendRun({
      ts: start + 60_010,
      jobId: job.id,
      action: "finished",
      status: "ok",
      summary: "ping",
      runAtMs: start + 60_000,
      durationMs: 10,
      nextRunAtMs: start + 120_000,
      deliveryStatus: "not-requested",
    });
    const second = await make({ dir, nowMs: start + 90_000 });
    expect((await second.store.readRuns(job.id)).entries.map((e) => e.status)).toEqual(["ok"]);
    expect((await second.store.get(job.id))?.state).toEqual({
      nextRunAtMs: start + 120_000,
      lastRunAtMs: start + 60_000,
      lastRunStatus: "ok",
      lastDurationMs: 10,
      lastDeliveryStatus: "not-requested",
      consecutiveErrors: 0,
    });
  });
});

describe("the real clock", () => {
  it("fires a job due in 2 s within 1 s of its time", async () => {
    const dir = tempDir();
    const sessions = new FileSessionStore(path.join(dir, "sessions"));
    const store = new FileCronStore(path.join(dir, "cron"));
    const service = new CronService({
      store,
      executor: new CronExecutor({ sessions, defaultAgentId: "main", clock: systemClock }),
    });
    stops.push(() => service.stop());
    await service.start();
    const due = Date.now() + 2_000;
    const job = await service.add(systemEvent({ kind: "at", at: iso(due) }, { deleteAfterRun: false }));
    await vi.waitFor(async () => expect((await store.readRuns(job.id)).total).toBe(1), {
      timeout: 5_000,
      interval: 50,
    });
    const runAtMs = (await store.readRuns(job.id)).entries[0]!.runAtMs!;
    expect(runAtMs).toBeGreaterThanOrEqual(due);
    expect(runAtMs - due).toBeLessThanOrEqual(1_000);
  });
});

describe("the fake clock", () => {
  it("keeps one timer armed, to the nearest job (never further than 60 s)", async () => {
    const h = await make();
    expect([h.clock.pending, h.clock.nextDue()]).toEqual([1, h.clock.now() + 60_000]);
    await h.service.add(systemEvent({ kind: "every", everyMs: 45_000 }));
    await h.service.add(systemEvent({ kind: "every", everyMs: 20_000 }));
    expect([h.clock.pending, h.clock.nextDue()]).toEqual([1, h.clock.now() + 20_000]);
    void FakeClock;
  });
});
