import type { EventEmitter } from "node:events";
import { retryWithBackoff } from "@clawtools/core/http";
import { completionMessage } from "./announce.js";
import type { RunOutcome, RunRegistry, SessionStore } from "./interfaces.js";
import type { SessionsEvents } from "./service-events.js";
import type { RunRecord } from "./types.js";

/** What the registry learns when a run ends. */
export type RunEnd = Pick<RunRecord, "status" | "endedAt" | "outcome">;

const ANNOUNCE_ATTEMPTS = 4;

/** What delivering an announce needs from the service. */
export interface AnnounceDeps {
  store: SessionStore;
  runs: RunRegistry;
  events: EventEmitter<SessionsEvents>;
  retryDelayMs: number;
  /** The requester's session, created when missing. */
  ensure(key: string): Promise<unknown>;
  /** Steers the message into the requester's live run, or starts the turn a yield waits for. */
  reachRequester(key: string, text: string): Promise<void>;
}

/**
 * Delivers the completion event to the requester's session, retrying; never to another session.
 * Given the run's `end`, it is recorded by the same registry write as the delivery (or, when the
 * first attempt fails, at once with the announce still pending), and `runEnded` is emitted then.
 * The requester's live run is reached only once the registry says the run ended and was announced.
 * Given `recorded` (the run's first record, still being written), the message is prepared
 * meanwhile and delivered only once that record is in; if it failed, nothing is announced.
 */
export async function deliverAnnounce(
  deps: AnnounceDeps,
  run: RunRecord,
  outcome: RunOutcome,
  runtimeMs: number,
  end?: RunEnd,
  recorded?: Promise<unknown>,
): Promise<void> {
  const child = await deps.store.get(run.childSessionKey);
  const message = completionMessage(
    run,
    child ?? { key: run.childSessionKey, sessionId: "unknown" },
    outcome,
    runtimeMs,
  );
  // never announced ahead of the record: a crash in between would leave an announce of no run
  if (
    recorded &&
    !(await recorded.then(
      () => true,
      () => false,
    ))
  )
    return;
  let unrecordedEnd = end;
  const record = async (announce: RunRecord["announce"]) => {
    const updated = await deps.runs.update(run.runId, { ...unrecordedEnd, announce });
    if (unrecordedEnd) {
      unrecordedEnd = undefined;
      deps.events.emit("runEnded", updated);
    }
    return updated;
  };
  try {
    await retryWithBackoff(
      async (attempt) => {
        await deps.ensure(run.requesterSessionKey);
        await deps.store.append(run.requesterSessionKey, [message], {
          idempotencyKey: run.announce.idempotencyKey,
        });
        const updated = await record({
          ...run.announce,
          status: "delivered",
          attempts: attempt,
          deliveredAt: Date.now(),
        });
        await deps.reachRequester(run.requesterSessionKey, message.content as string);
        deps.events.emit("announce", { run: updated, message });
      },
      {
        attempts: ANNOUNCE_ATTEMPTS,
        baseMs: deps.retryDelayMs,
        factor: 4,
        jitter: "none",
        // a delivery being retried does not hold back the run's end
        onRetry: async (error, _wait, attempt) => {
          if (unrecordedEnd)
            await record({
              ...run.announce,
              status: "pending",
              attempts: attempt,
              lastError: (error as Error).message,
            }).catch(() => {});
        },
      },
    );
  } catch (error) {
    const lastError = (error as Error).message;
    await record({ ...run.announce, status: "failed", attempts: ANNOUNCE_ATTEMPTS, lastError });
  }
}
