import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { gate, tempDir } from "../../test/helpers.js";
import { FileCronStore } from "../store/file-store.js";
import { CronExecutor } from "./executor.js";
import { systemClock } from "./interfaces.js";
import { CronService } from "./service.js";
import type { CronJob, CronRunLogEntry } from "./types.js";

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** A file store whose run log lines wait for the test to let them through. */
class HeldLogStore extends FileCronStore {
  readonly held: Array<{ entry: CronRunLogEntry; open: () => void }> = [];
  override async appendRun(entry: CronRunLogEntry): Promise<void> {
    const wait = gate();
    this.held.push({ entry, open: wait.open });
    await wait.promise;
    return super.appendRun(entry);
  }
}

function due(id: string, at: number): CronJob {
  return {
    id,
    name: id,
    enabled: true,
    createdAtMs: at,
    updatedAtMs: at,
    schedule: { kind: "every", everyMs: 3_600_000 },
    sessionTarget: "main",
    wakeMode: "now",
    payload: { kind: "systemEvent", text: id },
    state: { nextRunAtMs: at },
  };
}

describe("a finished run's end", () => {
  it("is on disk before its slot goes to the next due job, so a crash can repeat only the runs in flight", async () => {
    const store = new HeldLogStore(path.join(tempDir(), "cron"));
    const at = Date.now();
    await store.upsert(due("a", at));
    await store.upsert(due("b", at + 1));
    const started: string[] = [];
    const service = new CronService({
      store,
      executor: new CronExecutor({
        sessions: {
          async append(_key: string, messages: Array<{ content: string }>) {
            for (const message of messages) started.push(message.content);
            return true;
          },
        },
        defaultAgentId: "main",
        clock: systemClock,
      }),
      maxConcurrentRuns: 1,
    });
    stops.push(async () => {
      for (const held of store.held) held.open();
      await service.stop();
    });
    await service.start();
    // the first run finished; its log line waits
    await vi.waitFor(() => expect(store.held.map((h) => h.entry.jobId)).toEqual(["a"]), { timeout: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(started).toEqual(["System: a"]);
    expect((await service.status()).running).toBe(1);
    // the line written: the slot is free and the next job runs
    store.held[0]?.open();
    await vi.waitFor(() => expect(started).toEqual(["System: a", "System: b"]), { timeout: 10_000 });
    await vi.waitFor(() => expect(store.held).toHaveLength(2), { timeout: 10_000 });
    store.held[1]?.open();
    await vi.waitFor(async () => expect((await store.readRuns("b")).total).toBe(1), { timeout: 10_000 });
    expect((await store.readRuns("a")).entries[0]).toMatchObject({ status: "ok" });
  }, 30_000);
});
