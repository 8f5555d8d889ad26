import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { harness, tempDir } from "../../test/helpers.js";

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function make(options: Parameters<typeof harness>[0] = {}) {
  const h = await harness(options);
  stops.push(() => h.service.stop());
  return h;
}

describe("a burst", () => {
  it("1,000 jobs due in the same second run once each, at their own times, one at a time (default settings)", async () => {
    const dir = tempDir();
    const start = Date.parse("2026-01-05T00:00:00Z");
    // written straight to jobs.json, as after a restart: due 1..1000 ms after start
    const jobs = Array.from({ length: 1_000 }, (_, i) => ({
      id: `j${String(i).padStart(4, "0")}`,
      name: `j${i}`,
      enabled: true,
      createdAtMs: start,
      updatedAtMs: start,
      schedule: { kind: "every", everyMs: 3_600_000, anchorMs: start + 1_000 - i },
      sessionTarget: "main",
      wakeMode: "now",
      payload: { kind: "systemEvent", text: `tick ${i}` },
      state: { nextRunAtMs: start + 1_000 - i },
    }));
    mkdirSync(path.join(dir, "cron"), { recursive: true });
    writeFileSync(path.join(dir, "cron", "jobs.json"), JSON.stringify({ version: 1, jobs }));
    const h = await make({ dir, nowMs: start });
    await h.advance(1_000);
    for (const [i, job] of jobs.entries()) {
      const runs = (await h.store.readRuns(job.id)).entries;
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ status: "ok", runAtMs: start + 1_000 - i });
    }
    expect((await h.service.status()).running).toBe(0);
    const page = await h.service.list({ limit: 2 });
    expect(page.jobs.map((j) => [j.id, j.state.nextRunAtMs])).toEqual([
      ["j0999", start + 3_600_001],
      ["j0998", start + 3_600_002],
    ]);
    expect(page).toMatchObject({ total: 1_000, hasMore: true, nextOffset: 2 });
  }, 180_000);
});
