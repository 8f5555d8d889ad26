import path from "node:path";
import { FileSessionStore } from "@clawtools/sessions";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempDir } from "../../test/helpers.js";
import { FileCronStore } from "../store/file-store.js";
import { CronExecutor } from "./executor.js";
import { systemClock } from "./interfaces.js";
import { CronService } from "./service.js";

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** A file store whose claims fail the first `failures` times, as a dropped database connection does. */
class DroppingStore extends FileCronStore {
  failures = 2;
  override async claimDue(...args: Parameters<FileCronStore["claimDue"]>) {
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error("Connection terminated unexpectedly");
    }
    return super.claimDue(...args);
  }
}

describe("a scheduler pass that fails on the store", () => {
  it("is reported, not left unhandled, and tried again: the due job still fires", async () => {
    const dir = tempDir();
    const store = new DroppingStore(path.join(dir, "cron"));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    stops.push(async () => {
      process.off("unhandledRejection", onUnhandled);
    });
    const errors: string[] = [];
    const service = new CronService({
      store,
      executor: new CronExecutor({
        sessions: new FileSessionStore(path.join(dir, "sessions")),
        defaultAgentId: "main",
        clock: systemClock,
      }),
      onError: (error) => errors.push((error as Error).message),
    });
    stops.push(() => service.stop());
    await service.start();
    const job = await service.add({
      schedule: { kind: "at", at: new Date(Date.now() + 200).toISOString() },
      payload: { kind: "systemEvent", text: "ping" },
      deleteAfterRun: false,
    });
    await vi.waitFor(async () => expect((await store.readRuns(job.id)).total).toBe(1), {
      timeout: 20_000,
      interval: 50,
    });
    expect(errors).toEqual(["Connection terminated unexpectedly", "Connection terminated unexpectedly"]);
    expect(unhandled).toEqual([]);
  }, 30_000);
});
