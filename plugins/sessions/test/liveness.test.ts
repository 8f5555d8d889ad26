import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lostReason, type RunRecord } from "../src/index.js";
import { holder, server } from "./holder.js";

// Run liveness belongs to the store (issue 26): a run has an owner and a heartbeat; runs whose
// owner is gone are ended as lost and their requesters told; admission counts live runs only.

const dirs = () =>
  [mkdtempSync(path.join(tmpdir(), "live-state-")), mkdtempSync(path.join(tmpdir(), "live-ws-"))] as const;

describe("run liveness across processes", () => {
  it("five running spawns, kill -9 of their process, a restart: they end as lost, requesters are told, spawning works", async () => {
    const [stateDir, workspaceDir] = dirs();
    const held = await holder(stateDir, workspaceDir, 5);
    await held.killed();

    const s = server(stateDir, workspaceDir);
    try {
      const spawned = await s.call("sessions_spawn", { task: "after the crash" });
      expect(spawned.status).toBe("accepted");
      await s.service.idle();
      const list = await s.call("subagents", {});
      expect(list.active).toEqual([]);
      const lost = list.recent.filter((r: { status: string }) => r.status === "lost");
      expect(lost.map((r: { runId: string }) => r.runId).sort()).toEqual([...held.runIds].sort());
      for (const r of lost) expect(r.announce).toBe("delivered");
      const runs = await s.service.runs.list();
      for (const id of held.runIds) {
        const run = runs.find((r) => r.runId === id)!;
        expect(run).toMatchObject({
          status: "lost",
          outcome: { error: `lost: its owner process ${held.pid} is gone` },
        });
        expect(run.endedAt).toBeGreaterThan(run.createdAt);
        expect((await s.service.store.get(run.childSessionKey))?.status).toBe("lost");
      }
      // the requester's session got one completion event per lost run
      const events = (await s.service.store.history("agent:main:main"))
        .map((m) => String(m.content))
        .filter((c) => c.includes("[Internal task completion event]"));
      expect(
        events.filter((e) => e.includes(`status: failed: lost: its owner process ${held.pid} is gone`)),
      ).toHaveLength(5);
      // and a second pass (another restart) does nothing more
      expect(await s.service.reapLost()).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it("runs another live process holds are never ended, and count against the children limit", async () => {
    const [stateDir, workspaceDir] = dirs();
    const held = await holder(stateDir, workspaceDir, 2);
    const s = server(stateDir, workspaceDir, { maxChildrenPerAgent: 2 });
    try {
      expect(await s.service.reapLost()).toEqual([]);
      const list = await s.call("subagents", {});
      expect(list.active.map((r: { runId: string }) => r.runId).sort()).toEqual([...held.runIds].sort());
      expect(await s.call("sessions_spawn", { task: "one more" })).toEqual({
        status: "forbidden",
        error: "sessions_spawn has reached max active children for this session (2/2)",
      });
      await held.killed();
      expect((await s.call("sessions_spawn", { task: "one more" })).status).toBe("accepted");
      await s.service.idle();
    } finally {
      await s.close();
    }
  });
});

describe("an announce a crash left pending", () => {
  it("is delivered once by the next process that finds it", async () => {
    const [stateDir, workspaceDir] = dirs();
    // a pid that surely ran and is gone: a process that has exited
    const gone = spawn(process.execPath, ["-e", ""]);
    await new Promise((r) => gone.on("exit", r));
    const s = server(stateDir, workspaceDir);
    try {
      await s.service.store.create({ key: "agent:main:subagent:done", agentId: "main", depth: 1 });
      await s.service.ensure("agent:main:main");
      await s.service.runs.record({
        runId: "crashed-mid-announce",
        childSessionKey: "agent:main:subagent:done",
        requesterSessionKey: "agent:main:main",
        task: "finished before the crash",
        cleanup: "keep",
        depth: 1,
        createdAt: Date.now() - 5_000,
        startedAt: Date.now() - 5_000,
        endedAt: Date.now() - 1_000,
        status: "done",
        outcome: { reply: "the answer" },
        announce: { status: "pending", attempts: 1, idempotencyKey: "announce:crashed", lastError: "EIO" },
        owner: { pid: gone.pid!, instance: "dead", host: hostname() },
        heartbeatAt: Date.now() - 1_000,
      });
      await Promise.all([s.service.reapLost(), server(stateDir, workspaceDir).service.reapLost()]);
      expect((await s.service.runs.get("crashed-mid-announce"))?.announce.status).toBe("delivered");
      const events = (await s.service.store.history("agent:main:main"))
        .map((m) => String(m.content))
        .filter((c) => c.includes("[Internal task completion event]"));
      expect(events).toHaveLength(1);
      expect(events[0]).toContain("status: completed successfully");
      expect(events[0]).toContain("the answer");
    } finally {
      await s.close();
    }
  });
});

describe("lostReason", () => {
  const self = { pid: process.pid, instance: "me", host: hostname() };
  const run = (fields: Partial<RunRecord>): RunRecord => ({
    runId: "r",
    childSessionKey: "agent:main:subagent:x",
    requesterSessionKey: "agent:main:main",
    task: "t",
    cleanup: "keep",
    depth: 1,
    createdAt: 1_000,
    status: "running",
    announce: { status: "pending", attempts: 0, idempotencyKey: "k" },
    ...fields,
  });

  it("a live pid with a fresh heartbeat holds its run; a stale heartbeat (a reused pid) does not", () => {
    const alive = { pid: process.ppid, instance: "other", host: hostname() };
    expect(lostReason(run({ owner: alive, heartbeatAt: 50_000 }), self, 60_000, 30_000)).toBeUndefined();
    expect(lostReason(run({ owner: alive, heartbeatAt: 10_000 }), self, 60_000, 30_000)).toBe(
      `its owner process ${process.ppid} has not sent a heartbeat for 50s`,
    );
  });

  it("this service's own runs are never lost; other machines and owner-less records go by heartbeat", () => {
    expect(lostReason(run({ owner: { ...self } }), self, 1e12, 1)).toBeUndefined();
    const remote = { pid: 1, instance: "x", host: "elsewhere" };
    expect(lostReason(run({ owner: remote, heartbeatAt: 59_000 }), self, 60_000, 30_000)).toBeUndefined();
    expect(lostReason(run({ owner: remote, heartbeatAt: 1_000 }), self, 60_000, 30_000)).toBe(
      "its owner process 1 on elsewhere has not sent a heartbeat for 59s",
    );
    expect(lostReason(run({}), self, 60_000, 30_000)).toBe("no owner recorded and no heartbeat for 59s");
    expect(lostReason(run({}), self, 20_000, 30_000)).toBeUndefined();
  });
});
