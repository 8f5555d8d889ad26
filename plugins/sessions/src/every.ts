import { backgroundClock, type Clock } from "@clawtools/core/time";

/**
 * Calls `work` every `ms`, each call timed from the end of the one before (a slow store never
 * piles calls up), on a clock whose timers do not hold the process open. Returns the stop.
 */
export function every(ms: number, work: () => Promise<void>, clock: Clock = backgroundClock): () => void {
  let stopped = false;
  let handle: unknown;
  const tick = () => {
    handle = undefined;
    void work()
      .catch(() => {})
      .finally(() => {
        if (!stopped) handle = clock.setTimeout(tick, ms);
      });
  };
  handle = clock.setTimeout(tick, ms);
  return () => {
    stopped = true;
    if (handle !== undefined) clock.clearTimeout(handle);
  };
}
