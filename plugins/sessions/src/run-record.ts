import { randomUUID } from "node:crypto";
import type { RunOwner } from "./liveness.js";
import type { RunRecord } from "./types.js";

/**
 * A run as first recorded: running, held by `owner` (its heartbeat starts now), its announce
 * pending under an idempotency key unique to this start (a retried delivery lands once).
 */
export function newRunRecord(
  owner: RunOwner,
  fields: Omit<RunRecord, "announce" | "status" | "createdAt">,
): RunRecord {
  const now = Date.now();
  return {
    ...fields,
    status: "running",
    createdAt: now,
    owner: { ...owner },
    heartbeatAt: now,
    announce: {
      status: "pending",
      attempts: 0,
      idempotencyKey: `announce:${fields.runId}:${randomUUID().slice(0, 8)}`,
    },
  };
}
