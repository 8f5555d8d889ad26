import type { Clock } from "../time/index.js";
import type { RunOutcome } from "./agent-runner.js";
import type { SessionRun } from "./run-table.js";
import type { SessionStore } from "./session-store.js";
import type { TranscriptMessage } from "./transcript.js";

/**
 * The pieces of a run every in-process loop adapter has whatever its loop's major: the time
 * limit, the transcript writes in order, and the outcome of a turn from its last answer.
 */

/** Arms a run's time limit (none when `timeoutMs` is 0 or absent); the returned function disarms it. */
export function armTimeLimit(clock: Clock, timeoutMs: number | undefined, expire: () => void): () => void {
  const timer = timeoutMs ? clock.setTimeout(expire, timeoutMs) : undefined;
  return () => {
    if (timer !== undefined) clock.clearTimeout(timer);
  };
}

/**
 * Appends a run's messages to its session in the order they are produced (a crash loses at most
 * the one in flight); after a failed append the later ones are not written and `settled` rejects.
 */
export class TranscriptWriter {
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: SessionStore,
    private readonly sessionKey: string,
  ) {}

  /** Queues messages behind the ones before; the promise settles once they are in the store. */
  append(messages: TranscriptMessage[]): Promise<void> {
    this.chain = this.chain.then(() => this.store.append(this.sessionKey, messages).then(() => {}));
    return this.chain;
  }

  /** Queues a loop's message, stamped now when it carries no timestamp. */
  appendStamped(message: object): Promise<void> {
    const stamped = {
      ...message,
      timestamp: (message as { timestamp?: number }).timestamp ?? Date.now(),
    } as TranscriptMessage;
    return this.append([stamped]);
  }

  /** Every queued write done (rejects with the first failed one). */
  settled(): Promise<void> {
    return this.chain;
  }
}

/** A turn's last assistant answer as a loop reports it. */
export interface TurnAnswer {
  text: string;
  stopReason?: string;
  errorMessage?: string;
}

/**
 * The outcome of a turn that returned: timed out, no answer, aborted, the model's error (through
 * `failure`, which redacts it), yielded, or the answer.
 */
export function turnOutcome(
  run: SessionRun & { timedOut: boolean },
  last: TurnAnswer | undefined,
  failure: (message: string) => string,
): RunOutcome {
  if (run.timedOut) return { status: "timeout", ...(last ? { reply: last.text } : {}) };
  if (!last) return { status: "error", error: "the run produced no answer" };
  if (last.stopReason === "aborted") return { status: "aborted", error: "aborted" };
  if (last.stopReason === "error")
    return { status: "error", error: failure(last.errorMessage ?? "model error") };
  if (run.yielded !== undefined) return { status: "ok", reply: last.text || run.yielded, yielded: true };
  return { status: "ok", reply: last.text };
}

/**
 * Runs a turn to its outcome: a throw becomes `failed`'s outcome; either way the time limit is
 * disarmed and the run's tools released (a failing release does not change the outcome).
 */
export async function settleTurn(
  turn: () => Promise<RunOutcome>,
  failed: (error: Error) => RunOutcome | Promise<RunOutcome>,
  release: { disarm: () => void; tools: { dispose?(): Promise<void> } },
): Promise<RunOutcome> {
  try {
    return await turn();
  } catch (error) {
    return await failed(error as Error);
  } finally {
    release.disarm();
    await release.tools.dispose?.().catch(() => {});
  }
}
