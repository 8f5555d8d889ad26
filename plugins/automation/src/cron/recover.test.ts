import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/helpers.js";
import { FileCronStore } from "../store/file-store.js";
import { FakeClock } from "../testing.js";
import { recoverJobs } from "./recover.js";
import type { CronJob } from "./types.js";

const job: CronJob = {
  id: "hourly",
  name: "hourly",
  enabled: true,
  createdAtMs: 0,
  updatedAtMs: 0,
  schedule: { kind: "every", everyMs: 3_600_000 },
  sessionTarget: "main",
  wakeMode: "now",
  payload: { kind: "systemEvent", text: "tick" },
  state: { nextRunAtMs: 1_000 },
};

describe("recovery at start", () => {
  it("a run another live process finishes between the listing and the claim is not recorded as interrupted", async () => {
    const dir = path.join(tempDir(), "cron");
    const store = new FileCronStore(dir);
    const other = new FileCronStore(dir);
    await store.upsert(job);
    // another process (alive: this one) is running the job when recovery lists the jobs...
    await other.claimDue(1_000, "other", 60_000, 1);
    const listing = await store.list();
    // ...and records its run before recovery claims it
    await other.release("hourly", "other", {
      lastRunAtMs: 1_005,
      lastRunStatus: "ok",
      nextRunAtMs: 3_601_000,
    });
    const stale = Object.assign(Object.create(store), { list: async () => listing }) as FileCronStore;
    await recoverJobs(stale, new FakeClock(2_000), "once", { owner: "recoverer", leaseMs: 60_000 });
    expect((await store.get("hourly"))?.state).toEqual({
      lastRunAtMs: 1_005,
      lastRunStatus: "ok",
      nextRunAtMs: 3_601_000,
    });
    expect((await store.readRuns("hourly")).entries).toEqual([]);
  });

  it("a run whose process is gone and left no record is recorded as interrupted", async () => {
    const dir = path.join(tempDir(), "cron");
    const store = new FileCronStore(dir);
    await store.upsert(job);
    await store.claimDue(1_000, "gone", 1, 1);
    await recoverJobs(store, new FakeClock(2_000), "once", { owner: "recoverer", leaseMs: 60_000 });
    expect((await store.get("hourly"))?.state).toMatchObject({
      lastRunAtMs: 1_000,
      lastRunStatus: "interrupted",
    });
    expect((await store.readRuns("hourly")).entries).toMatchObject([
      { status: "interrupted", runAtMs: 1_000 },
    ]);
  });

  it("a run that started after its batch claim and was logged, its release lost with its process, is restored, not run again", async () => {
    const dir = path.join(tempDir(), "cron");
    const store = new FileCronStore(dir);
    await store.upsert(job);
    // claimed in a batch at 1,000; it waited for a run slot and ran at 1,050; its log line is
    // written, and the process died before the release that records its state
    await store.claimDue(1_000, "gone", 1, 1);
    await store.appendRun({
      ts: 1_080,
      jobId: "hourly",
      action: "finished",
      status: "ok",
      runAtMs: 1_050,
      durationMs: 30,
      nextRunAtMs: 3_601_050,
    });
    await recoverJobs(store, new FakeClock(2_000), "once", { owner: "recoverer", leaseMs: 60_000 });
    // the finished run is its state now: not due again, nothing recorded as interrupted
    expect((await store.get("hourly"))?.state).toEqual({
      lastRunAtMs: 1_050,
      lastRunStatus: "ok",
      lastDurationMs: 30,
      consecutiveErrors: 0,
      nextRunAtMs: 3_601_050,
    });
    expect((await store.readRuns("hourly")).entries.map((entry) => entry.status)).toEqual(["ok"]);
  });
});
