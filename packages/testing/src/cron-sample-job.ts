import type { CronJob } from "@clawtools/core/contracts";

/** A job every `everyMs: 60_000`, due at `nextRunAtMs` (none: not scheduled). */
export function sampleCronJob(id: string, nextRunAtMs: number | undefined, enabled = true): CronJob {
  return {
    id,
    name: `job ${id}`,
    enabled,
    createdAtMs: 1_000,
    updatedAtMs: 1_000,
    schedule: { kind: "every", everyMs: 60_000, anchorMs: 0 },
    sessionTarget: "main",
    wakeMode: "now",
    payload: { kind: "systemEvent", text: `hello ${id}` },
    state: nextRunAtMs === undefined ? {} : { nextRunAtMs },
  };
}
