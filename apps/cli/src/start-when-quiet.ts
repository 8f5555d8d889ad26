import { backgroundClock, type Clock } from "@clawtools/core/time";

export interface QuietOptions {
  /** How long the input must stay silent (default 150 ms). */
  quietMs?: number;
  /** The latest start, counted from now, however busy the input is (default 1 s). */
  latestMs?: number;
  clock?: Clock;
}

/**
 * Runs `start` once the client has gone quiet: no input for `quietMs`, or at `latestMs` at the
 * latest. A host opens and calls at once, so work the first call does not need (the sections
 * with state: the cron scheduler, sessions' reaper of crashed runs) waits until the opening and
 * that call have been read instead of loading beside them on the one main thread.
 */
export function startWhenQuiet(
  input: NodeJS.ReadableStream,
  start: () => void,
  options: QuietOptions = {},
): void {
  const clock = options.clock ?? backgroundClock;
  const quietMs = options.quietMs ?? 150;
  let done = false;
  let timer: unknown;
  const settle = (run: boolean) => {
    if (done) return;
    done = true;
    clock.clearTimeout(timer);
    clock.clearTimeout(latest);
    input.off("data", heard);
    input.off("end", ended);
    if (run) start();
  };
  const fire = () => settle(true);
  // the client left before going quiet: serve is stopping, nothing to start
  const ended = () => settle(false);
  const heard = () => {
    clock.clearTimeout(timer);
    timer = clock.setTimeout(fire, quietMs);
  };
  const latest = clock.setTimeout(fire, options.latestMs ?? 1_000);
  input.on("data", heard);
  input.once("end", ended);
  heard();
}
