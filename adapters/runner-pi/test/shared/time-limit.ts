import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AgentRunner, RunOutcome, SessionStore } from "@clawtools/core/contracts";
import { FakeClock } from "@clawtools/core/testing";
import { FileSessionStore } from "@clawtools/sessions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { startModelServer } from "../model-server.js";

// A run's time limit runs on the runner's clock (core's Clock): driven here by a FakeClock while
// the model holds its answer, so the limit is what ends the run.

export interface TimeLimitSuite {
  title: string;
  /** The loopback model of this runner's tests (streamed or whole). */
  startModel: typeof startModelServer;
  makeRunner(deps: { store: SessionStore; baseUrl: string; clock: FakeClock }): AgentRunner;
  /** What the runner's timed-out outcome holds besides `status: "timeout"` (checked when given). */
  outcome?: RunOutcome;
}

/** The time-limit case every in-process runner passes; each runner's test file calls this. */
export function describeTimeLimit(suite: TimeLimitSuite): void {
  describe(suite.title, () => {
    const held: Array<() => void> = [];
    let onHeld: (() => void) | undefined;
    let model: Awaited<ReturnType<typeof startModelServer>>;
    beforeAll(async () => {
      model = await suite.startModel(
        () =>
          new Promise((resolve) => {
            held.push(() => resolve({ text: "too late" }));
            onHeld?.();
          }),
      );
    });
    afterAll(async () => {
      for (const release of held.splice(0)) release();
      await model?.close();
    });

    it("ends a run whose model hangs once the clock passes timeoutMs (status timeout)", async () => {
      const store = new FileSessionStore(mkdtempSync(path.join(tmpdir(), "runner-timeout-")));
      await store.create({ key: "agent:main:subagent:t", agentId: "main", depth: 1 });
      const clock = new FakeClock();
      const runner = suite.makeRunner({ store, baseUrl: model.baseUrl, clock });
      const modelAsked = new Promise<void>((resolve) => {
        onHeld = resolve;
      });
      const { runId } = await runner.start({
        sessionKey: "agent:main:subagent:t",
        message: "hang",
        timeoutMs: 90_000,
      });
      await modelAsked;
      await clock.whenPending(1);
      clock.advance(89_999);
      expect(await runner.wait(runId, 1)).toEqual({ status: "running" });
      clock.advance(1);
      const ended = await runner.wait(runId, 30_000);
      if (suite.outcome) expect(ended).toEqual(suite.outcome);
      else expect(ended.status).toBe("timeout");
      expect(clock.pending).toBe(0);
    });
  });
}
