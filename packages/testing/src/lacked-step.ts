import { isTimeoutError, withTimeout } from "@clawtools/core/time";
import { type TestContext, it } from "./vitest-api.js";

/*
 * A step an implementation declares it lacks (`lacks: { step: reason }`) is an expected failure,
 * as the MCP SDK's conformance baseline treats a known failing scenario: it runs, passes while the
 * step fails, and fails (naming the step) once the step passes, so a stale `lacks` entry cannot
 * hide a step that now works. A lacked step has a short time of its own: what it waits for may
 * never come (a Gateway that turns a steered message into a later turn), and its running out of
 * time is the expected failure, not a slow suite.
 */

/** How long a lacked step runs (default) before its running out of time counts as its failure. */
export const LACKED_STEP_MS = 5_000;

/** What a step gets to bound its own waits by. */
export interface StepRun {
  /** Aborts when a lacked step's time is up: polls, waits and loops inside the step stop on it. */
  signal: AbortSignal;
  /** The longest a single wait inside the step may take (a lacked step's is short). */
  waitMs: number;
  ctx: TestContext;
}

export interface LackedStep {
  /** The suite's name (printed with the outcome). */
  suite: string;
  /** The step's name in `lacks`. */
  step: string;
  reason: string;
  title: string;
  /** The step's time limit (default LACKED_STEP_MS). */
  ms?: number | undefined;
}

/** vitest's skip (`ctx.skip()`) throws this; it is a skip, not the step failing. */
const isSkip = (error: unknown) => (error as { code?: unknown } | null)?.code === "VITEST_PENDING";

/** The title of a lacked step: the step's own, then why it is expected to fail. */
export function lackedTitle(title: string, step: string, reason: string): string {
  return `${title} [lacks ${step}, expected to fail: ${reason}]`;
}

/** Declares `fn` as the expected failure of a lacked step (see above). */
export function itLacks(lacked: LackedStep, fn: (run: StepRun) => Promise<void>): void {
  const ms = lacked.ms ?? LACKED_STEP_MS;
  const title = lackedTitle(lacked.title, lacked.step, lacked.reason);
  it(
    title,
    async (ctx) => {
      const controller = new AbortController();
      const running = fn({ signal: controller.signal, waitMs: ms, ctx });
      try {
        await withTimeout(running, ms, { what: `lacked step "${lacked.step}"` });
      } catch (error) {
        if (isSkip(error)) throw error;
        if (isTimeoutError(error)) {
          // stop it, and let what it has in flight finish (as long again at most) so it cannot
          // write into the steps after it
          controller.abort(error);
          await withTimeout(running, ms).catch(() => {});
        }
        const why = isTimeoutError(error)
          ? `no answer within ${ms} ms`
          : String((error as Error)?.message).split("\n")[0];
        console.info(`[${lacked.suite}] "${lacked.step}" fails as declared (${lacked.reason}): ${why}`);
        return;
      }
      throw new Error(`step "${lacked.step}" now passes: remove it from lacks (${lacked.suite})`);
    },
    // the step's own limit settles it; vitest's only catches a step that ignores it
    2 * ms + 10_000,
  );
}
