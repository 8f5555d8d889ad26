import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/helpers.js";
import { cronStoreConformance, cronStoreSteps, cronStoreTwoInstanceChecks } from "@clawtools/testing";
import { FileCronStore, RUN_LOG_KEEP_LINES, RUN_LOG_MAX_BYTES } from "./file-store.js";
import { FileLeaderLease } from "./file-lease.js";
import { InProcessLeaderLease } from "./memory-lease.js";
import { FakeClock } from "../testing.js";

cronStoreConformance(async () => new FileCronStore(path.join(tempDir(), "cron")), {
  name: "FileCronStore and FileLeaderLease: CronStore conformance",
  twoInstances: {
    makePair: () => {
      const dir = path.join(tempDir(), "cron");
      return [new FileCronStore(dir), new FileCronStore(dir)];
    },
    makeLeasePair: () => {
      const dir = path.join(tempDir(), "cron");
      return [new FileLeaderLease(dir), new FileLeaderLease(dir)];
    },
  },
});

const step = (name: string) => {
  const found = Object.entries(cronStoreSteps).find(([title]) => title.startsWith(name));
  if (!found) throw new Error(`no conformance step starting "${name}"`);
  return found[1];
};
const twoInstanceStep = (name: string) => {
  const found = Object.entries(cronStoreTwoInstanceChecks).find(([title]) => title.startsWith(name));
  if (!found) throw new Error(`no two-instance step starting "${name}"`);
  return found[1];
};

describe("FileCronStore", () => {
  it("the two-instance steps catch a store that keeps its claims in the process", async () => {
    // each instance remembers only its own claims, as the store did before it shared them
    class Forgetful extends FileCronStore {
      private readonly mine = new Set<string>();
      override async claimDue(nowMs: number, _owner: string, _leaseMs: number, max: number) {
        const due = (await this.list()).filter(
          (j) => j.enabled && !this.mine.has(j.id) && (j.state.nextRunAtMs ?? Infinity) <= nowMs,
        );
        for (const j of due.slice(0, max)) this.mine.add(j.id);
        return due.slice(0, max).map((j) => ({ ...j, state: { ...j.state, runningAtMs: nowMs } }));
      }
    }
    const dir = path.join(tempDir(), "cron");
    await expect(
      twoInstanceStep("two instances: claims are exclusive")(new Forgetful(dir), new Forgetful(dir)),
    ).rejects.toThrow();
  });

  it("the conformance suite catches a store that lets two owners claim one job", async () => {
    // claims whatever is due, ignoring leases
    class Leaky extends FileCronStore {
      override async claimDue(nowMs: number, _owner: string, _leaseMs: number, max: number) {
        const due = (await this.list()).filter(
          (j) => j.enabled && (j.state.nextRunAtMs ?? Infinity) <= nowMs,
        );
        return due.slice(0, max).map((j) => ({ ...j, state: { ...j.state, runningAtMs: nowMs } }));
      }
    }
    await expect(step("claimDue takes due")(new Leaky(path.join(tempDir(), "cron")))).rejects.toThrow();
    await expect(step("two owners claiming")(new Leaky(path.join(tempDir(), "cron")))).rejects.toThrow();
  });

  it("a store reused between steps is not empty: the suite notices", async () => {
    const store = new FileCronStore(path.join(tempDir(), "cron"));
    await step("upsert, get and remove")(store);
    await expect(step("a new store is empty")(store)).rejects.toThrow();
  });

  it("keeps OpenClaw's layout: jobs.json {version: 1, jobs} and runs/<jobId>.jsonl, no temp files left", async () => {
    const fresh = new FileCronStore(path.join(tempDir(), "cron"));
    await fresh.upsert({
      id: "abc",
      name: "n",
      enabled: true,
      createdAtMs: 1,
      updatedAtMs: 1,
      schedule: { kind: "every", everyMs: 1000 },
      sessionTarget: "main",
      wakeMode: "now",
      payload: { kind: "systemEvent", text: "t" },
      state: {},
    });
    await fresh.appendRun({ ts: 5, jobId: "abc", action: "finished", status: "ok" });
    const json = JSON.parse(readFileSync(path.join(fresh.dir, "jobs.json"), "utf8"));
    expect(json.version).toBe(1);
    expect(json.jobs.map((j: { id: string }) => j.id)).toEqual(["abc"]);
    expect(readFileSync(path.join(fresh.dir, "runs", "abc.jsonl"), "utf8")).toBe(
      '{"ts":5,"jobId":"abc","action":"finished","status":"ok"}\n',
    );
    expect(readdirSync(fresh.dir).sort()).toEqual(["jobs.json", "runs"]);
    // a second instance reads what the first wrote
    expect((await new FileCronStore(fresh.dir).get("abc"))?.name).toBe("n");
  });

  it("refuses a corrupt jobs.json with a message naming the file", async () => {
    const dir = path.join(tempDir(), "cron");
    const store = new FileCronStore(dir);
    await store.appendRun({ ts: 1, jobId: "a", action: "finished", status: "ok" });
    writeFileSync(path.join(dir, "jobs.json"), "{not json");
    await expect(new FileCronStore(dir).list()).rejects.toThrow(
      `cron store ${path.join(dir, "jobs.json")} is not valid JSON`,
    );
  });

  it("prunes a run log past its byte bound to its newest lines (line bound)", async () => {
    const store = new FileCronStore(path.join(tempDir(), "cron"), {
      runLogMaxBytes: 20_000,
      runLogKeepLines: 50,
    });
    for (let i = 0; i < 400; i++)
      await store.appendRun({ ts: i, jobId: "j", action: "finished", status: "ok" });
    const runs = await store.readRuns("j", { limit: 200 });
    // 56–58-byte lines pass 20,000 bytes at the 353rd append: cut to the newest 50, then 47 more
    expect(runs.total).toBe(97);
    const lines = readFileSync(path.join(store.dir, "runs", "j.jsonl"), "utf8")
      .trim()
      .split("\n");
    expect(statSync(path.join(store.dir, "runs", "j.jsonl")).size).toBeLessThanOrEqual(20_000);
    expect(runs.entries[0]!.ts).toBe(399);
    expect(lines.length).toBe(runs.total);
  });

  it("prunes a run log past 2 MB (defaults) to its newest lines, at most 2,000", async () => {
    const store = new FileCronStore(path.join(tempDir(), "cron"));
    const summary = "x".repeat(1_000);
    const total = 2_100;
    for (let i = 0; i < total; i++)
      await store.appendRun({ ts: i, jobId: "big", action: "finished", status: "ok", summary });
    const file = path.join(store.dir, "runs", "big.jsonl");
    const lines = readFileSync(file, "utf8").trim().split("\n");
    expect(statSync(file).size).toBeLessThanOrEqual(RUN_LOG_MAX_BYTES);
    expect(lines.length).toBeLessThanOrEqual(RUN_LOG_KEEP_LINES);
    expect(lines.length).toBeGreaterThan(100);
    expect(JSON.parse(lines[lines.length - 1]!).ts).toBe(total - 1);
    const runs = await store.readRuns("big", { limit: 1 });
    expect(runs.entries[0]!.ts).toBe(total - 1);
    expect(runs.total).toBe(lines.length);
  });
});

describe("InProcessLeaderLease", () => {
  it("one leader at a time; the lease passes on when it expires or is released", async () => {
    const clock = new FakeClock(0);
    const lease = new InProcessLeaderLease(clock);
    expect(await lease.acquire("cron", "a", 1_000)).toBe(true);
    expect(await lease.acquire("cron", "b", 1_000)).toBe(false);
    expect(await lease.renew("cron", "b", 1_000)).toBe(false);
    await clock.advance(999);
    expect(await lease.renew("cron", "a", 1_000)).toBe(true);
    await clock.advance(1_001);
    expect(await lease.acquire("cron", "b", 1_000)).toBe(true);
    await lease.release("cron", "b");
    expect(await lease.acquire("cron", "a", 1_000)).toBe(true);
  });
});
