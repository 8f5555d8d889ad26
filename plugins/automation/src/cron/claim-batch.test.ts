import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { gate, tempDir } from "../../test/helpers.js";
import { FileCronStore } from "../store/file-store.js";
import { FakeClock } from "../testing.js";
import { CLAIM_BATCH, CLAIM_HOLD_MS } from "./claim-queue.js";
import { CronExecutor } from "./executor.js";
import type { Clock, SinkMessage } from "./interfaces.js";
import { CronService } from "./service.js";
import type { CronJob } from "./types.js";

// Two schedulers on one cron directory, each with its own store (as two processes would have),
// driven by hand (`tick`) on one fake clock; a run of a chosen job is held open by a gate.

const T0 = Date.parse("2026-02-02T10:00:00Z");
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

function dueJobs(ids: string[]): CronJob[] {
  return ids.map((id, i) => ({
    id,
    name: id,
    enabled: true,
    createdAtMs: T0 - 10_000,
    updatedAtMs: T0 - 10_000,
    schedule: { kind: "every", everyMs: 3_600_000, anchorMs: T0 - 1_000 + i },
    sessionTarget: "main",
    wakeMode: "now",
    payload: { kind: "systemEvent", text: id },
    // due one after another, so the order of claims is known
    state: { nextRunAtMs: T0 - 1_000 + i },
  }));
}

function writeJobs(dir: string, jobs: CronJob[]): void {
  mkdirSync(path.join(dir, "cron"), { recursive: true });
  writeFileSync(path.join(dir, "cron", "jobs.json"), JSON.stringify({ version: 1, jobs }));
}

/** Every run of either scheduler, in order: who ran it and what the job's text was. */
type Ran = Array<{ by: string; text: string }>;

async function scheduler(
  dir: string,
  clock: FakeClock,
  by: string,
  ran: Ran,
  hold?: Map<string, Promise<void>>,
  options: { stopGraceMs?: number } = {},
) {
  const store = new FileCronStore(path.join(dir, "cron"));
  const sessions = {
    async append(_key: string, messages: SinkMessage[]) {
      const text = String(messages[0]?.content).replace(/^System: /, "");
      ran.push({ by, text });
      await hold?.get(text);
      return true;
    },
  };
  const executor = new CronExecutor({ sessions, defaultAgentId: "main", clock: clock as Clock });
  // the timer is off: each test says when a scheduler looks for due jobs
  const service = new CronService({ store, executor, clock, owner: by, enabled: false, ...options });
  await service.start();
  stops.push(() => service.stop());
  return { store, service };
}

const claimedBy = async (store: FileCronStore) =>
  (await store.list()).filter((job) => job.state.runningAtMs !== undefined).map((job) => job.id);

describe("claims taken in batches", () => {
  it("two schedulers, 200 due jobs: each runs once; one stopped mid-batch leaves its unrun claims to the other and finishes its run in flight", async () => {
    const dir = tempDir();
    const ids = Array.from({ length: 200 }, (_, i) => `j${String(i).padStart(3, "0")}`);
    writeJobs(dir, dueJobs(ids));
    const clock = new FakeClock(T0);
    const ran: Ran = [];
    const first = gate();
    const a = await scheduler(dir, clock, "A", ran, new Map([["j000", first.promise]]));
    const b = await scheduler(dir, clock, "B", ran);

    // A claims one batch in one store write: one to run now (held open), the rest waiting
    await a.service.tick();
    expect(await claimedBy(b.store)).toEqual(ids.slice(0, 1 + CLAIM_BATCH));
    expect(ran).toEqual([{ by: "A", text: "j000" }]);

    // B runs everything A did not claim, never one of A's
    await b.service.tick();
    await b.service.idle();
    expect(ran.filter((r) => r.by === "B").map((r) => r.text)).toEqual(ids.slice(1 + CLAIM_BATCH));
    expect(await claimedBy(b.store)).toEqual(ids.slice(0, 1 + CLAIM_BATCH));

    // A stops mid-batch: its waiting claims are given back at once, and the stop waits for its
    // run in flight, which keeps its claim until it ends and is recorded
    let stopped = false;
    const stopping = a.service.stop().then(() => {
      stopped = true;
    });
    await vi.waitFor(async () => expect(await claimedBy(b.store)).toEqual(["j000"]));
    await b.service.tick();
    await b.service.idle();
    expect(stopped).toBe(false);
    first.open();
    await stopping;

    const texts = ran.map((r) => r.text);
    expect(texts).toHaveLength(200);
    expect(new Set(texts).size).toBe(200);
    expect(ran.filter((r) => r.by === "A").map((r) => r.text)).toEqual(["j000"]);
    for (const id of ids) expect((await b.store.readRuns(id)).entries).toHaveLength(1);
    expect(await claimedBy(b.store)).toEqual([]);
    expect((await b.store.list()).every((job) => job.state.lastRunStatus === "ok")).toBe(true);
  });

  it("a run still going when the stop's grace ends keeps its claim; the others go back and stop returns", async () => {
    const dir = tempDir();
    writeJobs(dir, dueJobs(["stuck", "w1", "w2"]));
    const clock = new FakeClock(T0);
    const ran: Ran = [];
    const stuck = gate();
    const a = await scheduler(dir, clock, "A", ran, new Map([["stuck", stuck.promise]]), { stopGraceMs: 50 });
    await a.service.tick();
    expect(await claimedBy(a.store)).toEqual(["stuck", "w1", "w2"]);
    await a.service.stop();
    // left to recovery at the next start (recorded as interrupted), never run twice by this one
    expect(await claimedBy(a.store)).toEqual(["stuck"]);
    expect(ran.map((r) => r.text)).toEqual(["stuck"]);
    stuck.open();
  });

  it("a job claimed in a batch and removed, disabled, edited or put off before its turn is handled as a claim at its turn would be", async () => {
    const dir = tempDir();
    const ids = ["hold", "removed", "disabled", "edited", "later", "forced", "plain"];
    writeJobs(dir, dueJobs(ids));
    const clock = new FakeClock(T0);
    const ran: Ran = [];
    const held = gate();
    const a = await scheduler(dir, clock, "A", ran, new Map([["hold", held.promise]]));
    const other = await scheduler(dir, clock, "other", ran);
    await a.service.tick();
    expect(await claimedBy(a.store)).toEqual(ids);

    // edits while the batch waits, some from another process
    await other.service.remove("removed");
    await a.service.update("disabled", { enabled: false });
    await other.service.update("edited", { payload: { text: "edited, new text" } });
    await a.service.update("later", { schedule: { kind: "every", everyMs: 86_400_000 } });
    // a forced run here takes the waiting claim rather than answering "already running"
    expect(await a.service.run("forced")).toMatchObject({ ok: true, enqueued: true });
    // another process cannot run a job this one holds a claim on, as with any claim
    expect(await other.service.run("plain")).toEqual({ ok: true, ran: false, reason: "already-running" });

    held.open();
    await a.service.idle();
    expect(ran.map((r) => r.text)).toEqual(["hold", "forced", "edited, new text", "plain"]);
    expect(ran.every((r) => r.by === "A")).toBe(true);

    const job = (id: string) => a.store.get(id);
    expect(await job("removed")).toBeUndefined();
    expect((await a.store.readRuns("removed")).entries).toEqual([]);
    const disabled = await job("disabled");
    expect(disabled).toMatchObject({ enabled: false });
    expect(disabled?.state.runningAtMs).toBeUndefined();
    expect(disabled?.state.lastRunAtMs).toBeUndefined();
    const later = await job("later");
    expect(later?.state.nextRunAtMs).toBeGreaterThan(T0);
    expect(later?.state.runningAtMs).toBeUndefined();
    expect(later?.state.lastRunAtMs).toBeUndefined();
    // no claim is left: the other scheduler can take any of them
    expect(await claimedBy(other.store)).toEqual([]);
    for (const id of ["hold", "edited", "forced", "plain"])
      expect((await a.store.readRuns(id)).entries).toHaveLength(1);
  });

  it("claims of which none starts for CLAIM_HOLD_MS (a slow run holds the slot) are given back, and another scheduler runs them", async () => {
    const dir = tempDir();
    const ids = ["slow", "q1", "q2", "q3"];
    writeJobs(dir, dueJobs(ids));
    const clock = new FakeClock(T0);
    const ran: Ran = [];
    const slow = gate();
    const a = await scheduler(dir, clock, "A", ran, new Map([["slow", slow.promise]]));
    const b = await scheduler(dir, clock, "B", ran);
    await a.service.tick();
    expect(await claimedBy(b.store)).toEqual(ids);
    await clock.advance(CLAIM_HOLD_MS - 1);
    await a.service.idle({ runs: false });
    expect(await claimedBy(b.store)).toEqual(ids);
    await clock.advance(1);
    await a.service.idle({ runs: false });
    expect(await claimedBy(b.store)).toEqual(["slow"]);

    await b.service.tick();
    await b.service.idle();
    slow.open();
    await a.service.idle();
    expect(ran).toEqual([
      { by: "A", text: "slow" },
      { by: "B", text: "q1" },
      { by: "B", text: "q2" },
      { by: "B", text: "q3" },
    ]);
    expect(await claimedBy(b.store)).toEqual([]);
  });
});
