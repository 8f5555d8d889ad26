import type { CronJob } from "@clawtools/core/contracts";

/** A one-shot job due at `atMs` that posts a system event to the main session. */
export function oneShot(id: string, atMs: number, options: { deleteAfterRun?: boolean } = {}): CronJob {
  return {
    id,
    name: id,
    enabled: true,
    ...(options.deleteAfterRun ? { deleteAfterRun: true } : {}),
    createdAtMs: atMs,
    updatedAtMs: atMs,
    schedule: { kind: "at", at: new Date(atMs).toISOString() },
    sessionTarget: "main",
    wakeMode: "now",
    payload: { kind: "systemEvent", text: id },
    state: { nextRunAtMs: atMs },
  };
}
