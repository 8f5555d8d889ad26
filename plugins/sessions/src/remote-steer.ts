import { randomUUID } from "node:crypto";
import type { AgentRunner, RunRegistry } from "./interfaces.js";
import type { RunOwner } from "./liveness.js";
import { followHeldRun } from "./remote-kill.js";
import type { RunRecord } from "./types.js";

/** What became of a steer asked of the process that holds the run. */
export type RemoteSteer =
  /** The holder put the message into the run. */
  | { delivered: true }
  /** The run ended before the holder took the message. */
  | { ended: RunRecord }
  /** The holder died, or did not take it within `waitMs` (another steer may have replaced it). */
  | { pending: true; holderGone?: true };

/**
 * Asks the process holding `run` to steer `message` into it (the run's `steerRequest`, read on the
 * holder's next check) and waits, re-reading the run, until the holder acknowledges this request,
 * the run ends, its holder dies, or `waitMs` passes.
 */
export async function requestRemoteSteer(
  runs: RunRegistry,
  run: RunRecord,
  self: RunOwner,
  message: string,
  options: { waitMs: number; staleMs: number },
): Promise<RemoteSteer> {
  const id = randomUUID();
  await runs.update(run.runId, { steerRequest: { id, at: Date.now(), by: { ...self }, message } });
  const followed = await followHeldRun<RemoteSteer>(runs, run, self, options, (current) => {
    if (current?.steerAck === id) return { delivered: true };
    if (current?.status !== "running") return { ended: current ?? run };
    return undefined;
  });
  if ("answer" in followed) return followed.answer;
  return "holderGone" in followed ? { pending: true, holderGone: true } : { pending: true };
}

/**
 * The holder's side: steers a request it has not answered yet into the run (into the runner's
 * current run for it: a yielded sub-agent continues in another), then acknowledges it.
 */
export async function answerSteerRequest(
  runs: RunRegistry,
  run: RunRecord,
  self: RunOwner,
  runner: AgentRunner | undefined,
  continued: ReadonlyMap<string, string>,
): Promise<void> {
  const request = run.steerRequest;
  if (!runner || !request || request.id === run.steerAck) return;
  if (run.status !== "running" || run.owner?.instance !== self.instance) return;
  if (await runner.steer(continued.get(run.runId) ?? run.runId, request.message).catch(() => false))
    await runs.update(run.runId, { steerAck: request.id });
}
