import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { holder, server } from "./holder.js";

// A run another live process holds can only be steered by that process: a steer asks it through
// the run registry (the run's steerRequest), and the result says whether it arrived, never that
// the running run is "already finished".

const dirs = () =>
  [mkdtempSync(path.join(tmpdir(), "steer-state-")), mkdtempSync(path.join(tmpdir(), "steer-ws-"))] as const;

describe("subagents steer of a run another process holds", () => {
  it("process B steers a run of live process A: A steers it in, the run goes on, B's result says so", async () => {
    const [stateDir, workspaceDir] = dirs();
    const a = await holder(stateDir, workspaceDir, 1);
    const [target] = a.runIds as [string];
    const b = server(stateDir, workspaceDir, { liveness: { killWaitMs: 120_000 } });
    try {
      const steered = a.steered(target, "focus on the tests");
      const result = await b.call("subagents", { action: "steer", target, message: "focus on the tests" });
      const host = (await b.service.runs.get(target))?.owner?.host;
      expect(result).toMatchObject({
        status: "accepted",
        runId: target,
        heldBy: `process ${a.pid} on ${host}`,
        text: `steered held-0 (held by process ${a.pid} on ${host}).`,
      });
      await steered;
      const run = await b.service.runs.get(target);
      expect(run).toMatchObject({ status: "running", steerRequest: { message: "focus on the tests" } });
      expect(run?.steerAck).toBe(run?.steerRequest?.id);
      expect(a.alive()).toBe(true);
    } finally {
      await b.close();
      await a.killed();
    }
  });

  it("a holder that does not answer leaves the steer pending, and says so", async () => {
    const [stateDir, workspaceDir] = dirs();
    const a = await holder(stateDir, workspaceDir, 1);
    const [target] = a.runIds as [string];
    // stop A (SIGSTOP): alive, but it reads nothing
    process.kill(a.pid, "SIGSTOP");
    const b = server(stateDir, workspaceDir, { liveness: { killWaitMs: 1 } });
    try {
      const result = await b.call("subagents", { action: "steer", target, message: "anyone there" });
      expect(result).toMatchObject({
        status: "pending",
        runId: target,
        text: expect.stringMatching(
          /^asked process \d+ .*which holds held-0, to steer it; it has not confirmed yet\.$/,
        ),
      });
    } finally {
      process.kill(a.pid, "SIGCONT");
      await b.close();
      await a.killed();
    }
  });
});
