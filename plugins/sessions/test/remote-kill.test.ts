import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { holder, server } from "./holder.js";

// A run another live process holds can only be aborted by that process: a kill asks it through
// the run registry (the run's abortRequest), and the kill result says what it did.

const dirs = () =>
  [mkdtempSync(path.join(tmpdir(), "kill-state-")), mkdtempSync(path.join(tmpdir(), "kill-ws-"))] as const;

describe("subagents kill of a run another process holds", () => {
  it("process B kills a run of live process A: A aborts it, it ends killed, B's result says so; A's other run goes on", async () => {
    const [stateDir, workspaceDir] = dirs();
    const a = await holder(stateDir, workspaceDir, 2);
    const [target, other] = a.runIds as [string, string];
    const b = server(stateDir, workspaceDir, { liveness: { killWaitMs: 120_000 } });
    try {
      const aborted = a.aborted(target);
      const result = await b.call("subagents", { action: "kill", target });
      expect(result).toMatchObject({
        status: "ok",
        runId: target,
        heldBy: `process ${a.pid} on ${(await b.service.runs.get(target))?.owner?.host}`,
        text: `killed held-0 (held by process ${a.pid} on ${(await b.service.runs.get(target))?.owner?.host}).`,
      });
      await aborted;
      const run = await b.service.runs.get(target);
      expect(run).toMatchObject({ status: "killed", abortRequest: { by: { pid: process.pid } } });
      expect(run?.owner?.pid).toBe(a.pid);
      expect((await b.service.store.get(run!.childSessionKey))?.status).toBe("killed");
      // A lives on and still holds its other run; a killed run is not announced
      expect(a.alive()).toBe(true);
      expect((await b.service.runs.get(other))?.status).toBe("running");
      const events = (await b.service.store.history("agent:main:main"))
        .map((m) => String(m.content))
        .filter((c) => c.includes("[Internal task completion event]"));
      expect(events).toEqual([]);
      // a second kill finds it finished
      expect(await b.call("subagents", { action: "kill", target })).toMatchObject({
        status: "done",
        text: "held-0 is already finished.",
      });
      // kill all: A ends the other run too
      const all = await b.call("subagents", { action: "kill", target: "all" });
      expect(all).toMatchObject({ status: "ok", killed: [other], text: "killed 1 subagents." });
      expect((await b.service.runs.get(other))?.status).toBe("killed");
    } finally {
      await b.close();
      await a.killed();
    }
  });

  it("a holder that does not answer within killWaitMs leaves the run running and the result says pending; once it dies the run can be ended here", async () => {
    const [stateDir, workspaceDir] = dirs();
    const a = await holder(stateDir, workspaceDir, 1);
    const [target] = a.runIds as [string];
    // stop A (SIGSTOP): alive, but it reads nothing
    process.kill(a.pid, "SIGSTOP");
    const b = server(stateDir, workspaceDir, { liveness: { killWaitMs: 1 } });
    try {
      const result = await b.call("subagents", { action: "kill", target });
      expect(result.status).toBe("pending");
      expect(result.text).toBe(
        `asked process ${a.pid} on ${(await b.service.runs.get(target))?.owner?.host}, which holds held-0, to kill it; it has not confirmed yet (subagents list shows when it ends).`,
      );
      expect((await b.service.runs.get(target))?.status).toBe("running");
      await a.killed();
      // its holder is gone: the list ends it as lost
      const list = await b.call("subagents", {});
      expect(list.recent.map((r: { status: string }) => r.status)).toEqual(["lost"]);
    } finally {
      await b.close();
    }
  });
});
