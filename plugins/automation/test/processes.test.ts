import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CronJob } from "../src/cron/types.js";
import { FileCronStore } from "../src/store/file-store.js";
import { tempDir } from "./helpers.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");
// tsx runs the worker from source (core declares it; this package reaches it through core)
const TSX = pathToFileURL(createRequire(path.join(ROOT, "packages/core/package.json")).resolve("tsx")).href;
const WORKER = path.join(import.meta.dirname, "fixtures", "cron-worker.ts");

const children: ChildProcess[] = [];
/** What each worker said on stderr and how it ended, printed when a test fails (CI keeps no more). */
const said = new Map<ChildProcess, string>();
afterEach((context) => {
  if (context.task.result?.state === "fail")
    for (const child of children) {
      const end = child.exitCode ?? child.signalCode ?? "still running";
      console.error(
        `worker ${child.pid} (${child.spawnargs.slice(-5).join(" ")}), ${end}:\n${said.get(child) ?? ""}`,
      );
    }
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  said.clear();
});

function worker(...args: string[]): ChildProcess {
  const child = spawn(
    process.execPath,
    ["--conditions=@clawtools/source", "--import", TSX, WORKER, ...args],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
    said.set(child, stderr);
  });
  child.on("exit", (code, signal) => {
    if (code && code !== 0) console.error(`worker ${args[0]} exited ${code} ${signal}: ${stderr}`);
  });
  children.push(child);
  return child;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`worker exited ${code} before it was ready`)));
  });
}

const lines = (file: string) =>
  existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];

function dueJob(id: string, atMs: number, kind: "at" | "every" = "at"): CronJob {
  return {
    id,
    name: id,
    enabled: true,
    createdAtMs: atMs,
    updatedAtMs: atMs,
    schedule:
      kind === "at" ? { kind: "at", at: new Date(atMs).toISOString() } : { kind: "every", everyMs: 1_000 },
    sessionTarget: "main",
    wakeMode: "now",
    payload: { kind: "systemEvent", text: id },
    ...(kind === "at" ? { deleteAfterRun: true } : {}),
    state: { nextRunAtMs: atMs },
  } as CronJob;
}

describe("several processes on one cron directory", () => {
  it("concurrent adds from three processes: every job is there, none lost", async () => {
    const dir = path.join(tempDir(), "cron");
    const adders = ["a", "b", "c"].map((prefix) => worker("add", dir, prefix, "40"));
    expect(await Promise.all(adders.map(exited))).toEqual([0, 0, 0]);
    const ids = (await new FileCronStore(dir).list()).map((job) => job.id);
    expect(ids).toHaveLength(120);
    for (const prefix of ["a", "b", "c"]) for (let i = 0; i < 40; i++) expect(ids).toContain(`${prefix}${i}`);
  }, 120_000);

  it("three claiming processes claim each of 90 due jobs exactly once", async () => {
    const dir = path.join(tempDir(), "cron");
    const log = path.join(dir, "..", "fired.log");
    const store = new FileCronStore(dir);
    for (let i = 0; i < 90; i++) await store.upsert(dueJob(`j${i}`, Date.now() - 1_000 + i, "every"));
    const claimers = ["A", "B", "C"].map((owner) => worker("claim", dir, log, owner));
    expect(await Promise.all(claimers.map(exited))).toEqual([0, 0, 0]);
    const fired = lines(log);
    expect(fired).toHaveLength(90);
    expect(new Set(fired).size).toBe(90);
    // every job released, none left marked running or claimed
    const jobs = await store.list();
    expect(jobs.filter((job) => job.state.runningAtMs !== undefined)).toEqual([]);
    expect(JSON.parse(readFileSync(path.join(dir, "jobs.json"), "utf8")).leases).toBeUndefined();
  }, 120_000);

  it("two schedulers without a leader lease fire each of 40 due jobs exactly once", async () => {
    const dir = path.join(tempDir(), "cron");
    const log = path.join(dir, "..", "fired.log");
    const store = new FileCronStore(dir);
    // due as both start: their first ticks race for the same jobs
    const at = Date.now() + 200;
    for (let i = 0; i < 40; i++) await store.upsert(dueJob(`once${i}`, at + i));
    const a = worker("serve", dir, log, "none");
    const b = worker("serve", dir, log, "none");
    await Promise.all([firstLine(a), firstLine(b)]);
    await vi.waitFor(() => expect(lines(log)).toHaveLength(40), { timeout: 90_000, interval: 200 });
    a.kill("SIGTERM");
    b.kill("SIGTERM");
    await Promise.all([exited(a), exited(b)]);
    const texts = lines(log).map((line) => line.split(" ").slice(1).join(" "));
    expect(new Set(texts).size).toBe(40);
    expect(texts).toHaveLength(40);
    // one-shot jobs are deleted after their run: nothing is left to fire again
    expect(await store.count()).toBe(0);
  }, 150_000);

  it("a burst of 300 jobs due at once, two schedulers without a lease: each fires exactly once", async () => {
    const dir = path.join(tempDir(), "cron");
    const log = path.join(dir, "..", "fired.log");
    // due once both have started (a loaded machine takes seconds to start them), so their first
    // ticks race: a scheduler claims in batches, and one started alone would take the whole burst
    const at = Date.now() + 15_000;
    // hourly jobs, so each is due exactly once during the test; written as after a restart
    const jobs = Array.from({ length: 300 }, (_, i) => ({
      ...dueJob(`burst${i}`, at, "every"),
      schedule: { kind: "every", everyMs: 3_600_000 },
    }));
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "jobs.json"), JSON.stringify({ version: 1, jobs }));
    const a = worker("serve", dir, log, "none");
    const b = worker("serve", dir, log, "none");
    await Promise.all([firstLine(a), firstLine(b)]);
    expect(Date.now(), "both schedulers started before the burst was due").toBeLessThan(at);
    // every run fired and recorded (a run still being recorded when its process stops is left
    // to the next start's recovery, which another test covers)
    const store = new FileCronStore(dir);
    const ok = async () => (await store.list()).filter((job) => job.state.lastRunStatus === "ok");
    await vi.waitFor(async () => expect(await ok()).toHaveLength(300), { timeout: 120_000, interval: 250 });
    a.kill("SIGTERM");
    b.kill("SIGTERM");
    expect(await Promise.all([exited(a), exited(b)])).toEqual([0, 0]);
    const fired = lines(log);
    const texts = fired.map((line) => line.split(" ").slice(1).join(" "));
    expect(texts).toHaveLength(300);
    expect(new Set(texts).size).toBe(300);
    // both processes took part
    expect(new Set(fired.map((line) => line.split(" ")[0])).size).toBe(2);
    expect((await store.list()).filter((job) => job.state.runningAtMs !== undefined)).toEqual([]);
    // the stopping schedulers folded the journal into jobs.json
    expect(
      JSON.parse(readFileSync(path.join(dir, "jobs.json"), "utf8")).jobs.every(
        (job: CronJob) => job.state.lastRunStatus === "ok",
      ),
    ).toBe(true);
  }, 180_000);

  it("200 due jobs, two schedulers claiming in batches, one stopped mid-batch: each job fires exactly once", async () => {
    const dir = path.join(tempDir(), "cron");
    const log = path.join(dir, "..", "fired.log");
    const at = Date.now() + 300;
    const jobs = Array.from({ length: 200 }, (_, i) => ({
      ...dueJob(`b${i}`, at, "every"),
      schedule: { kind: "every", everyMs: 3_600_000 },
    }));
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "jobs.json"), JSON.stringify({ version: 1, jobs }));
    // one run at a time, 25 ms each: each scheduler holds a batch of claims it has not run yet
    const a = worker("serve", dir, log, "none", "25", "1");
    const b = worker("serve", dir, log, "none", "25", "1");
    await Promise.all([firstLine(a), firstLine(b)]);
    const by = (child: ChildProcess) => lines(log).filter((line) => line.startsWith(`${child.pid} `));
    await vi.waitFor(() => expect(by(a).length).toBeGreaterThanOrEqual(3), { timeout: 60_000, interval: 20 });
    // stopped with most of its batch unrun: it gives those claims back for the other to run, and
    // its run in flight ends and is recorded before it exits
    a.kill("SIGTERM");
    expect(await exited(a)).toBe(0);
    const firedByA = by(a).length;
    expect(firedByA).toBeLessThan(200);
    await vi.waitFor(() => expect(lines(log).length).toBeGreaterThanOrEqual(200), {
      timeout: 120_000,
      interval: 100,
    });
    b.kill("SIGTERM");
    expect(await exited(b)).toBe(0);
    const texts = lines(log).map((line) => line.split(" ").slice(1).join(" "));
    expect(texts).toHaveLength(200);
    expect(new Set(texts).size).toBe(200);
    expect(by(a)).toHaveLength(firedByA);
    expect(by(b)).toHaveLength(200 - firedByA);
    // nothing is left claimed: A's stop gave back its waiting claims and finished its run in flight
    const store = new FileCronStore(dir);
    expect((await store.list()).filter((job) => job.state.runningAtMs !== undefined)).toEqual([]);
    expect((await store.list()).every((job) => job.state.lastRunStatus === "ok")).toBe(true);
  }, 180_000);

  it("kill -9 of the leader mid-batch: the follower takes its unrun claims over and runs every job", async () => {
    const dir = path.join(tempDir(), "cron");
    const log = path.join(dir, "..", "fired.log");
    const leader = worker("serve", dir, log, "lease", "25", "1");
    expect(await firstLine(leader)).toBe("ready leader");
    const follower = worker("serve", dir, log, "lease", "25", "1");
    expect(await firstLine(follower)).toBe("ready follower");
    const store = new FileCronStore(dir);
    const ids = Array.from({ length: 100 }, (_, i) => `k${i}`);
    const at = Date.now();
    await Promise.all(
      ids.map((id) =>
        store.upsert({ ...dueJob(id, at, "every"), schedule: { kind: "every", everyMs: 3_600_000 } }),
      ),
    );
    const by = (child: ChildProcess) => lines(log).filter((line) => line.startsWith(`${child.pid} `));
    // the leader picks the jobs up on its next wake-up (at most a third of its 1.5 s lease)
    await vi.waitFor(() => expect(by(leader).length).toBeGreaterThanOrEqual(3), {
      timeout: 60_000,
      interval: 20,
    });
    leader.kill("SIGKILL");
    await exited(leader);
    expect(by(leader).length).toBeLessThan(ids.length);
    const fired = () => new Set(lines(log).map((line) => line.split(" ").slice(1).join(" ")));
    await vi.waitFor(() => expect(fired().size).toBe(ids.length), { timeout: 90_000, interval: 100 });
    // and recorded (a run still in flight when its process stops is left to the next start)
    const recorded = async () =>
      (await store.list()).filter(
        (job) => job.state.lastRunStatus === "ok" && job.state.runningAtMs === undefined,
      );
    await vi.waitFor(async () => expect(await recorded()).toHaveLength(ids.length), {
      timeout: 60_000,
      interval: 100,
    });
    follower.kill("SIGTERM");
    expect(await exited(follower)).toBe(0);
    // every job ran; only the run in flight when the leader died ran again (its end was never recorded)
    const texts = lines(log).map((line) => line.split(" ").slice(1).join(" "));
    expect(texts.length - fired().size).toBeLessThanOrEqual(1);
    expect((await store.list()).filter((job) => job.state.runningAtMs !== undefined)).toEqual([]);
  }, 180_000);

  it("kill -9 of the leader: the follower takes the lease and the due jobs over", async () => {
    const dir = path.join(tempDir(), "cron");
    const log = path.join(dir, "..", "fired.log");
    const store = new FileCronStore(dir);
    const leader = worker("serve", dir, log, "lease");
    expect(await firstLine(leader)).toBe("ready leader");
    const follower = worker("serve", dir, log, "lease");
    expect(await firstLine(follower)).toBe("ready follower");
    await store.upsert(dueJob("tick", Date.now(), "every"));
    // the leader fires it (every second); the follower does not
    await vi.waitFor(() => expect(lines(log).length).toBeGreaterThanOrEqual(2), { timeout: 60_000 });
    const pids = new Set(lines(log).map((line) => line.split(" ")[0]));
    expect([...pids]).toEqual([String(leader.pid)]);
    leader.kill("SIGKILL");
    await exited(leader);
    const before = lines(log).length;
    await vi.waitFor(
      () =>
        expect(
          lines(log)
            .slice(before)
            .some((line) => line.startsWith(`${follower.pid} `)),
        ).toBe(true),
      { timeout: 60_000, interval: 100 },
    );
    const lease = JSON.parse(readFileSync(path.join(dir, "leader.cron.json"), "utf8"));
    expect(lease).toMatchObject({ owner: `p${follower.pid}`, pid: follower.pid });
    // each run of the job is recorded once: no run time appears twice in its log
    follower.kill("SIGTERM");
    await exited(follower);
    const runs = (await store.readRuns("tick", { limit: 200 })).entries;
    const runTimes = runs.map((entry) => entry.runAtMs);
    expect(new Set(runTimes).size).toBe(runTimes.length);
  }, 150_000);
});
