import { jsonResult } from "@clawtools/core";
import { requestRemoteSteer } from "../remote-steer.js";
import type { SessionsService } from "../service.js";
import type { RunRecord } from "../types.js";

/**
 * `subagents steer` of a run another live process holds: that process steers the message in (the
 * run's `steerRequest`); the result says whether it did, instead of calling the run finished.
 */
export async function steerElsewhere(
  service: SessionsService,
  run: RunRecord,
  message: string,
  base: Record<string, unknown>,
  name: string,
  holder: string,
) {
  const answer = await requestRemoteSteer(service.runs, run, service.owner, message, {
    waitMs: service.killWaitMs,
    staleMs: service.staleMs,
  });
  if ("delivered" in answer)
    return jsonResult({
      status: "accepted",
      ...base,
      runId: run.runId,
      heldBy: holder,
      text: `steered ${name} (held by ${holder}).`,
    });
  if ("ended" in answer)
    return jsonResult({ status: "done", ...base, runId: run.runId, text: `${name} is already finished.` });
  return jsonResult({
    status: "pending",
    ...base,
    runId: run.runId,
    heldBy: holder,
    text: answer.holderGone
      ? `${holder}, which held ${name}, is gone; the message was not delivered.`
      : `asked ${holder}, which holds ${name}, to steer it; it has not confirmed yet.`,
  });
}
