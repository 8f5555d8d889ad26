import { systemClock } from "@clawtools/core/time";
import type { BackgroundProcess } from "../process/host.js";

// Waiting for a background process's next output (poll with a timeout).

export const MAX_POLL_WAIT_MS = 120_000;

/** Resolves on new output, the exit, the deadline or the abort, whichever comes first. */
export function nextOutput(
  session: BackgroundProcess,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      systemClock.clearTimeout(timer);
      stop();
      signal?.removeEventListener("abort", done);
      resolve();
    };
    // through core's clock: a wait longer than Node's timer limit is chained, never fired at once
    const timer = systemClock.setTimeout(done, ms);
    const stop = session.onData(done);
    session.exited.then(done);
    signal?.addEventListener("abort", done, { once: true });
  });
}
