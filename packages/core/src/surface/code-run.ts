import { randomUUID } from "node:crypto";
import { systemClock } from "../time/clock.js";
import { answerRequest, type BridgeScope, failureCode } from "./code-bridge.js";
import { RunOutput } from "./code-result.js";
import type {
  CodeSandboxFailureCode,
  CodeSandboxRequest,
  CodeSandboxRun,
  CodeSandboxSettlement,
} from "./code-sandbox.js";

/** OpenClaw 9.6's text for a reply that would pass the run's program-data allowance. */
export const INBOX_FULL =
  "Code Mode program-data budget exceeded. Paginate or narrow the tool request, or consume pending replies before requesting more data.";

export type RunOutcome =
  | { status: "completed"; value: { json: string; originalBytes: number } }
  | { status: "failed"; code: CodeSandboxFailureCode | "aborted"; error: string }
  | { status: "waiting" };

/**
 * One code mode run on the host side: steps the sandbox, answers each request it makes (the
 * catalog's own tools, so a nested call runs the same pipeline as a direct one), and delivers
 * the answers at the next step. When the budget ends with calls still running the run parks
 * (`waiting`); `wait` continues it with a fresh budget.
 */
export class CodeRun {
  readonly runId = `cm_${randomUUID()}`;
  readonly output = new RunOutput();
  bridgeDispatchStarted = false;
  private started = false;
  private closed = false;
  private readonly inflight = new Map<string, { method: string; abort: AbortController }>();
  private ready: CodeSandboxSettlement[] = [];
  private wake: (() => void) | undefined;
  private readonly lifetime = new AbortController();

  constructor(
    private readonly sandbox: CodeSandboxRun,
    readonly scope: BridgeScope,
    private readonly maxReplyBytes: number,
    private readonly minResumeMs: number,
  ) {}

  /** Calls still running, as a waiting result lists them. */
  pendingToolCalls(): Array<{ id: string; method: string }> {
    return [...this.inflight].map(([id, { method }]) => ({ id, method }));
  }

  /** Runs until the guest finishes, fails, or the deadline (epoch ms) passes with calls pending. */
  async advance(deadline: number, signal: AbortSignal): Promise<RunOutcome> {
    for (;;) {
      if (signal.aborted) return this.fail("aborted", "code mode execution aborted");
      let settled: CodeSandboxSettlement[] = [];
      if (this.started) {
        if (this.inflight.size > 0 && this.ready.length === 0) {
          const settledInTime = await this.settlement(deadline, signal);
          if (signal.aborted) return this.fail("aborted", "code mode execution aborted");
          if (!settledInTime) return { status: "waiting" };
        }
        if (deadline - Date.now() < this.minResumeMs) return { status: "waiting" };
        settled = this.ready.splice(0);
      }
      this.started = true;
      const step = await this.sandbox.step({ settled, deadline });
      this.output.append(step.output);
      if (step.status === "completed") {
        await this.close();
        return { status: "completed", value: step.value };
      }
      if (step.status === "failed") return this.fail(step.code, step.error);
      for (const id of step.canceled) {
        this.inflight.get(id)?.abort.abort();
        this.inflight.delete(id);
      }
      for (const request of step.requests) this.dispatch(request);
    }
  }

  /** Ends the run: running calls are aborted, the sandbox is freed. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.lifetime.abort();
    this.inflight.clear();
    await this.sandbox.dispose();
  }

  private async fail(code: CodeSandboxFailureCode | "aborted", error: string): Promise<RunOutcome> {
    await this.close();
    return { status: "failed", code, error };
  }

  private dispatch(request: CodeSandboxRequest) {
    this.bridgeDispatchStarted = true;
    const abort = new AbortController();
    this.inflight.set(request.id, { method: request.method, abort });
    const signal = AbortSignal.any([this.lifetime.signal, abort.signal]);
    answerRequest(request, this.scope, signal).then(
      (value) => {
        const json = JSON.stringify(value ?? null) ?? "null";
        if (Buffer.byteLength(json, "utf8") > this.maxReplyBytes)
          this.settle(request.id, false, JSON.stringify({ message: INBOX_FULL, code: "invalid_input" }));
        else this.settle(request.id, true, json);
      },
      (error: unknown) =>
        this.settle(
          request.id,
          false,
          JSON.stringify({
            message: error instanceof Error ? error.message : String(error),
            code: failureCode(error),
          }),
        ),
    );
  }

  private settle(id: string, ok: boolean, json: string) {
    if (!this.inflight.delete(id)) return;
    this.ready.push({ id, ok, json });
    this.wake?.();
  }

  private settlement(deadline: number, signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (settled: boolean) => {
        systemClock.clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.wake = undefined;
        resolve(settled);
      };
      const onAbort = () => done(false);
      const timer = systemClock.setTimeout(() => done(false), Math.max(0, deadline - Date.now()));
      signal.addEventListener("abort", onAbort, { once: true });
      this.wake = () => done(true);
    });
  }
}
