import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/helpers.js";
import type { CronJob } from "../cron/types.js";
import { FileCronStore, JOURNAL_MIN_BYTES } from "./file-store.js";

const job = (id: string, nextRunAtMs: number): CronJob => ({
  id,
  name: id,
  enabled: true,
  createdAtMs: 1,
  updatedAtMs: 1,
  schedule: { kind: "every", everyMs: 60_000 },
  sessionTarget: "main",
  wakeMode: "now",
  payload: { kind: "systemEvent", text: id },
  state: { nextRunAtMs },
});

const onDisk = (dir: string) => JSON.parse(readFileSync(path.join(dir, "jobs.json"), "utf8"));
const journals = (dir: string) => readdirSync(dir).filter((name) => name.startsWith("jobs.journal."));

async function storeWith(n: number) {
  const dir = path.join(tempDir(), "cron");
  const store = new FileCronStore(dir);
  for (let i = 0; i < n; i++) await store.upsert(job(`j${i}`, 1_000 + i));
  return { dir, store };
}

describe("the file store's journal", () => {
  it("a claim and a release are appended beside jobs.json, not rewritten into it; a second store sees them", async () => {
    const { dir, store } = await storeWith(3);
    const before = readFileSync(path.join(dir, "jobs.json"), "utf8");
    const [claimed] = await store.claimDue(1_000, "a", 60_000, 1);
    expect(claimed?.id).toBe("j0");
    expect(readFileSync(path.join(dir, "jobs.json"), "utf8")).toBe(before);
    const generation = onDisk(dir).generation;
    expect(journals(dir)).toEqual([`jobs.journal.${generation}.jsonl`]);
    const other = new FileCronStore(dir);
    expect((await other.get("j0"))?.state.runningAtMs).toBe(1_000);
    expect(await other.claimDue(1_000, "b", 60_000, 5)).toEqual([]);
    expect(await store.release("j0", "a", { nextRunAtMs: 70_000, lastRunStatus: "ok" })).toBe(true);
    expect(await other.get("j0")).toMatchObject({ state: { nextRunAtMs: 70_000, lastRunStatus: "ok" } });
    expect((await other.get("j0"))?.state.runningAtMs).toBeUndefined();
  });

  it("flush folds the journal into jobs.json (OpenClaw's layout holds every job again) and removes it", async () => {
    const { dir, store } = await storeWith(2);
    await store.claimDue(1_000, "a", 60_000, 1);
    await store.release("j0", "a", { nextRunAtMs: 90_000, lastRunStatus: "ok" });
    await store.flush();
    expect(journals(dir)).toEqual([]);
    const doc = onDisk(dir);
    expect(doc.jobs.find((j: CronJob) => j.id === "j0").state).toEqual({
      nextRunAtMs: 90_000,
      lastRunStatus: "ok",
    });
    expect(doc.leases).toBeUndefined();
  });

  it("is folded in once it outgrows jobs.json, so the rewrites stay a fixed share of the appends", async () => {
    const { dir, store } = await storeWith(5);
    const generation = onDisk(dir).generation;
    let folded = 0;
    let last = generation;
    // each run appends two lines of a few hundred bytes: past 256 KiB within a few hundred runs
    for (let run = 0; run < 1_500; run++) {
      const [claimed] = await store.claimDue(1_000_000, "a", 60_000, 1);
      if (!claimed) throw new Error("nothing due");
      await store.release(claimed.id, "a", { nextRunAtMs: 2_000 + run, lastRunStatus: "ok" });
      const now = onDisk(dir).generation;
      if (now !== last) folded++;
      last = now;
    }
    expect(folded).toBeGreaterThanOrEqual(1);
    expect(folded).toBeLessThan(10);
    for (const name of journals(dir)) {
      expect(name).toBe(`jobs.journal.${last}.jsonl`);
      expect(readFileSync(path.join(dir, name)).length).toBeLessThanOrEqual(JOURNAL_MIN_BYTES + 2_000);
    }
    expect((await new FileCronStore(dir).list()).map((j) => j.state.lastRunStatus)).toEqual(
      Array(5).fill("ok"),
    );
  });

  it("a line cut off by a writer that died mid-write is not read, and the next writer cuts it off", async () => {
    const { dir, store } = await storeWith(2);
    await store.claimDue(1_000, "a", 60_000, 1);
    const file = path.join(dir, journals(dir)[0] as string);
    const whole = readFileSync(file, "utf8");
    appendFileSync(file, '{"g":1,"id":"j1","job":{"id":"j1","na');
    const other = new FileCronStore(dir);
    expect((await other.get("j1"))?.name).toBe("j1");
    expect(await other.claimDue(1_001, "b", 60_000, 5)).toMatchObject([{ id: "j1" }]);
    const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
    expect(readFileSync(file, "utf8").startsWith(whole)).toBe(true);
    expect(lines.map((line) => JSON.parse(line).id)).toEqual(["j0", "j1"]);
    expect((await store.get("j1"))?.state.runningAtMs).toBe(1_001);
  });

  it("a journal left by a crash between writing jobs.json and removing it is not replayed", async () => {
    const { dir, store } = await storeWith(1);
    const generation = onDisk(dir).generation;
    await store.claimDue(1_000, "a", 60_000, 1);
    await store.release("j0", "a", { nextRunAtMs: 5_000, lastRunStatus: "ok" });
    await store.flush();
    // the old generation's journal put back, saying the job is claimed
    const stale = path.join(dir, `jobs.journal.${generation}.jsonl`);
    const claimed = { ...job("j0", 1_000), state: { nextRunAtMs: 1_000, runningAtMs: 1_000 } };
    writeFileSync(stale, `${JSON.stringify({ g: generation, id: "j0", job: claimed })}\n`);
    expect((await new FileCronStore(dir).get("j0"))?.state).toEqual({
      nextRunAtMs: 5_000,
      lastRunStatus: "ok",
    });
    // the next rewrite clears it away
    await store.upsert(job("j1", 9_000));
    expect(existsSync(stale)).toBe(false);
  });

  it("refuses a corrupt complete line with a message naming the journal and the byte", async () => {
    const { dir, store } = await storeWith(1);
    await store.claimDue(1_000, "a", 60_000, 1);
    const file = path.join(dir, journals(dir)[0] as string);
    const size = readFileSync(file).length;
    appendFileSync(file, "{oops}\n");
    await expect(new FileCronStore(dir).list()).rejects.toThrow(
      `cron journal ${file} has a corrupt line at byte ${size}`,
    );
  });
});
