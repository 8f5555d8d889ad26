import { delay } from "@clawtools/core/time";
import { backoffPause } from "@clawtools/core/http";
import type { RunRegistry } from "./interfaces.js";
import { liveTokens, lostReason, type RunOwner } from "./liveness.js";
import type { RunRecord } from "./types.js";

/**
 * Whether another live process holds this running run (then only that process can abort its
 * runner); `live` as `lostReason` takes it (see `liveTokens`).
 */
export function heldElsewhere(
  run: RunRecord,
  self: RunOwner,
  now: number,
  staleMs: number,
  live?: ReadonlySet<number>,
): boolean {
  return (
    run.status === "running" &&
    run.owner !== undefined &&
    run.owner.instance !== self.instance &&
    lostReason(run, self, now, staleMs, live) === undefined
  );
}

/** How following a run another process holds ended. */
export type Followed<T> = { answer: T } | { holderGone: true } | { timedOut: RunRecord };

/**
 * Re-reads a run another process holds (backing off to 200 ms) until `answer` returns something,
 * its holder dies, or `waitMs` passes: how a kill or a steer asked of the holder waits for it.
 */
export async function followHeldRun<T>(
  runs: RunRegistry,
  run: RunRecord,
  self: RunOwner,
  options: { waitMs: number; staleMs: number },
  answer: (current: RunRecord | undefined) => T | undefined,
): Promise<Followed<T>> {
  const deadline = Date.now() + options.waitMs;
  for (let poll = 1; ; poll++) {
    const current = await runs.get(run.runId);
    const found = answer(current);
    if (found !== undefined) return { answer: found };
    const live = await liveTokens(runs);
    if (!current || !heldElsewhere(current, self, Date.now(), options.staleMs, live))
      return { holderGone: true };
    if (Date.now() >= deadline) return { timedOut: current };
    await delay(backoffPause(poll, { baseMs: 5, maxMs: 200, jitter: "none" }));
  }
}

/** What became of a kill asked of another process. */
export type RemoteKill =
  /** The run ended (`killed`, or finished on its own meanwhile) or still runs when `waitMs` ran out. */
  | { run: RunRecord }
  /** Its holder died while the request waited: nobody else will end the run. */
  | { holderGone: true };

/**
 * Asks the process holding `run` to kill it (the run's `abortRequest`, which the holder reads on
 * its next check) and waits, re-reading the run, until it ends, its holder dies, or `waitMs`
 * passes. The holder ends the run itself, so its own follow-up (no announce for a killed run,
 * the child's session marked) stays in one place.
 */
export async function requestRemoteKill(
  runs: RunRegistry,
  run: RunRecord,
  self: RunOwner,
  options: { waitMs: number; staleMs: number },
): Promise<RemoteKill> {
  await runs.update(run.runId, { abortRequest: { at: Date.now(), by: { ...self } } });
  const followed = await followHeldRun(runs, run, self, options, (current) =>
    !current ? run : current.status !== "running" ? current : undefined,
  );
  if ("answer" in followed) return { run: followed.answer };
  return "timedOut" in followed ? { run: followed.timedOut } : { holderGone: true };
}
