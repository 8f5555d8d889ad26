import type { McpToolsetLike } from "./server.js";

/** Why a server stopped: end of its input, a signal, or `stop()`. */
export type StopReason = "end of input" | "transport closed" | "stop()" | NodeJS.Signals;

export const DEFAULT_STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGTERM", "SIGINT", "SIGHUP"];

export interface LifecycleOptions {
  /**
   * Signals that stop the server the way end of input does (default SIGTERM, SIGINT, SIGHUP);
   * `false` leaves signals to the app. A second signal while stopping ends the process at once.
   */
  signals?: readonly NodeJS.Signals[] | false;
  /** Runs after the toolset's `dispose()` on stop (an app's `registry.dispose()`, say). */
  onStop?: () => void | Promise<void>;
  /** Where the server logs (never stdout); default nothing. */
  log?: (message: string) => void;
}

/** A running server. */
export interface McpServing {
  /** Resolves once the server has stopped and the toolset is disposed, with the reason. */
  readonly done: Promise<StopReason>;
  /** Stops the server: cancels running calls, closes the transport, disposes the toolset. */
  stop(): Promise<StopReason>;
}

/**
 * The one way a server stops: close the transport(s) (which cancels running calls), dispose the
 * toolset (plugins kill their processes), run `onStop`, then let go of the signal handlers.
 */
export function createLifecycle(
  toolset: McpToolsetLike,
  options: LifecycleOptions,
  closeTransports: () => Promise<void>,
): McpServing & { stopWith(reason: StopReason): Promise<StopReason> } {
  const log = options.log ?? (() => {});
  let stopping: Promise<StopReason> | undefined;
  let finish: (reason: StopReason) => void = () => {};
  const done = new Promise<StopReason>((resolve) => {
    finish = resolve;
  });
  const handlers = new Map<NodeJS.Signals, () => void>();
  const release = () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
    handlers.clear();
  };

  const stopWith = (reason: StopReason): Promise<StopReason> => {
    if (stopping) return stopping;
    stopping = done;
    void (async () => {
      log(`stopping (${reason})`);
      const step = async (what: string, fn: () => unknown) => {
        try {
          await fn();
        } catch (error) {
          log(`${what} failed: ${(error as Error).message}`);
        }
      };
      await step("closing the transport", closeTransports);
      await step("disposing the toolset", () => toolset.dispose?.());
      await step("onStop", () => options.onStop?.());
      release();
      finish(reason);
    })();
    return stopping;
  };

  for (const signal of options.signals === false ? [] : (options.signals ?? DEFAULT_STOP_SIGNALS)) {
    const handler = () => {
      if (!stopping) {
        void stopWith(signal);
        return;
      }
      // asked twice: stop now, the way the signal would have without us
      log(`${signal} again while stopping: exiting now`);
      release();
      process.kill(process.pid, signal);
    };
    handlers.set(signal, handler);
    process.on(signal, handler);
  }
  return { done, stop: () => stopWith("stop()"), stopWith };
}
