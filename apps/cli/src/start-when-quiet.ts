import { backgroundClock, type Clock } from "@clawtools/core/time";

export interface QuietOptions {
  /** How long the connection must stay silent (default 150 ms). */
  quietMs?: number;
  /** The latest start, counted from now, however busy the connection is (default 1 s). */
  latestMs?: number;
  clock?: Clock;
}

/** What the server tells the quiet watch: it wrote to the client, or it is stopping. */
export interface QuietWatch {
  wrote(): void;
  /** Nothing starts from now on (serve is stopping). */
  cancel(): void;
}

/**
 * Runs `start` once the client has gone quiet: nothing read or written for `quietMs` while no
 * request waits for its answer, or at `latestMs` at the latest. A host opens and calls at once,
 * so work the first call does not need (the sections with state: the cron scheduler, sessions'
 * reaper of crashed runs) waits until the opening and that call have been answered instead of
 * loading beside them on the one main thread. A request is input with an `"id"` in it (a
 * notification has none); it waits until the server writes next (`wrote`), which answers it or
 * shows the server busy with it.
 */
export function startWhenQuiet(
  input: NodeJS.ReadableStream,
  start: () => void,
  options: QuietOptions = {},
): QuietWatch {
  const clock = options.clock ?? backgroundClock;
  const quietMs = options.quietMs ?? 150;
  let done = false;
  let waiting = false;
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
  // silence with a request unanswered is a call at work, not a quiet client
  const fire = () => {
    if (!waiting) settle(true);
  };
  const rearm = () => {
    clock.clearTimeout(timer);
    timer = clock.setTimeout(fire, quietMs);
  };
  // the client left before going quiet: serve is stopping, nothing to start
  const ended = () => settle(false);
  const heard = (chunk: unknown) => {
    if (String(chunk).includes('"id"')) waiting = true;
    rearm();
  };
  const latest = clock.setTimeout(() => settle(true), options.latestMs ?? 1_000);
  input.on("data", heard);
  input.once("end", ended);
  rearm();
  return {
    wrote: () => {
      if (done) return;
      waiting = false;
      rearm();
    },
    cancel: () => settle(false),
  };
}
