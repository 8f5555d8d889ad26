import type { ApprovalDecision } from "../wrap/hooks.js";
import { type Clock, systemClock } from "../time/clock.js";
import { noteCall } from "../wrap/call-notes.js";

/** What a person is asked to approve: which tool, the exact command, where, and why. */
export interface ToolApprovalRequest {
  tool: string;
  command: string;
  cwd: string;
  /** Why approval is needed (an allowlist miss, `ask=always`, a plugin hook's request…). */
  reason: string;
}

/**
 * The one approval handler type. The signal aborts when the answer is no longer wanted: its
 * reason is a `TimeoutError` DOMException when the approval timed out (the call was denied), an
 * `AbortError` when the run was cancelled, and it also aborts once an answer was taken.
 */
export type ToolApprovalHandler<R extends ToolApprovalRequest = ToolApprovalRequest> = (
  request: R,
  signal: AbortSignal,
) => Promise<ApprovalDecision>;

/** How an approval ended. Anything but the two allows is a deny. */
export type ApprovalOutcome = "allow-once" | "allow-always" | "deny" | "timeout" | "cancelled";

/** Default time a handler has to answer (2 minutes); after it the call is denied. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;

export interface AskApprovalOptions {
  timeoutMs?: number;
  /** The run's signal: aborting it cancels the approval (a deny). */
  signal?: AbortSignal;
  /** Times the approval (default `systemClock`; tests pass a FakeClock). */
  clock?: Clock;
}

/**
 * The single timeout policy: ask `handler`, deny on timeout (the handler's signal aborts with a
 * TimeoutError so it can withdraw its prompt), on the run's abort, on a throw and on any answer
 * that is not one of the three decisions (fail closed).
 */
export async function askApproval<R>(
  handler: (request: R, signal: AbortSignal) => Promise<unknown>,
  request: R,
  options: AskApprovalOptions = {},
): Promise<ApprovalOutcome> {
  const runSignal = options.signal;
  if (runSignal?.aborted) {
    noteCall("approval", "cancelled");
    return "cancelled";
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  if (!(timeoutMs > 0))
    throw new RangeError(`approval timeout must be a positive number of ms, got ${timeoutMs}`);
  const controller = new AbortController();
  // not withTimeout: the handler's signal carries a DOMException, as AbortSignal.timeout's does
  const clock = options.clock ?? systemClock;
  let timer: unknown;
  let onAbort: (() => void) | undefined;
  const ended = new Promise<ApprovalOutcome>((resolve) => {
    timer = clock.setTimeout(() => {
      controller.abort(new DOMException(`Approval timed out after ${timeoutMs} ms`, "TimeoutError"));
      resolve("timeout");
    }, timeoutMs);
    onAbort = () => {
      controller.abort(new DOMException("Approval cancelled (run aborted)", "AbortError"));
      resolve("cancelled");
    };
    runSignal?.addEventListener("abort", onAbort, { once: true });
  });
  const answered = Promise.resolve()
    .then(() => handler(request, controller.signal))
    .then(
      (d): ApprovalOutcome => (d === "allow-once" || d === "allow-always" ? d : "deny"),
      (): ApprovalOutcome => "deny",
    );
  try {
    const outcome = await Promise.race([answered, ended]);
    noteCall("approval", outcome);
    return outcome;
  } finally {
    clock.clearTimeout(timer);
    if (onAbort) runSignal?.removeEventListener("abort", onAbort);
    controller.abort(new DOMException("Approval answered", "AbortError"));
  }
}
