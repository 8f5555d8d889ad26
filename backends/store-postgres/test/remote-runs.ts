import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import type { RunRecord } from "@clawtools/core/contracts";
import { createSessionsPlugin } from "@clawtools/sessions";
import { createScriptedRunner } from "@clawtools/sessions/testing";
import { describe, expect, it, vi } from "vitest";
import { openPostgresStore, type PostgresStore } from "../src/index.js";
import { cutOff } from "./cut-off.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const TSX = pathToFileURL(createRequire(path.join(ROOT, "packages/core/package.json")).resolve("tsx")).href;
const FIXTURE = path.join(import.meta.dirname, "fixtures", "run-holder.ts");
const MAIN = "agent:main:main";
const ELSEWHERE = "elsewhere.example";

/** The sessions section of a serve on this store: its liveness checks run in the background. */
function observer(store: PostgresStore) {
  const plugin = createSessionsPlugin({
    store: store.sessions,
    runs: store.runs,
    runner: ({ store: s }) => createScriptedRunner({ store: s, script: () => "unused" }),
  });
  const dir = mkdtempSync(path.join(tmpdir(), "pg-remote-"));
  return plugin.serviceFor({ stateDir: dir, workspaceDir: dir });
}

/** A real process holding one never-ending run as a serve on another host: its run id and the child. */
async function remoteHolder(url: string, schema: string) {
  const child = spawn(
    process.execPath,
    ["--conditions=@clawtools/source", "--import", TSX, FIXTURE, url, schema, ELSEWHERE],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const runId = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) =>
      reject(new Error(`run holder exited ${code} before it was ready: ${stderr}`)),
    );
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      if (line.startsWith("ready ")) resolve(line.slice(6));
    });
  });
  return { child, runId };
}

const lostEvents = async (store: PostgresStore) =>
  (await store.sessions.history(MAIN))
    .map((m) => String(m.content))
    .filter((c) => c.includes("failed: lost:"));

/**
 * Sub-agent runs are bound to their holder's connection as cron claims are: a holder on another
 * machine (no pid of this one to check) that dies is seen at once, not after the heartbeat goes
 * stale, and a holder cut off from the database can record nothing over `lost`.
 */
export function remoteRunsSuite(url: () => string): void {
  describe("runs of a serve on another host", () => {
    it("a SIGKILLed holder on another host: its run ends lost long before its heartbeat could go stale, the requester told once", async () => {
      const schema = "remote_runs";
      const store = await openPostgresStore({ connectionString: url(), schema, maxConnections: 2 });
      const service = observer(store);
      const holder = await remoteHolder(url(), schema);
      try {
        const held = (await store.runs.get(holder.runId)) as RunRecord;
        expect(held).toMatchObject({ status: "running", owner: { host: ELSEWHERE, pid: holder.child.pid } });
        expect(held.owner?.epoch).toEqual(expect.any(Number));
        // alive: nothing is ended, though no process of this machine has its pid's meaning
        expect(await service.reapLost()).toEqual([]);
        const exited = new Promise((resolve) => holder.child.once("exit", resolve));
        holder.child.kill("SIGKILL");
        await exited;
        // the heartbeat would be stale only after 60 s; the connection's end is seen within the wait
        const ended = await store.runs.waitForEnd(holder.runId, 15_000);
        expect(ended).toMatchObject({
          status: "lost",
          outcome: {
            error: `lost: its owner process ${holder.child.pid} on ${ELSEWHERE} is gone (its connection to the database dropped)`,
          },
        });
        await vi.waitFor(async () => expect(await lostEvents(store)).toHaveLength(1), { timeout: 10_000 });
        // the background pass that ended it may still be under way (a call joins it); a fresh one ends nothing
        await service.reapLost();
        expect(await service.reapLost()).toEqual([]);
        expect(await lostEvents(store)).toHaveLength(1);
      } finally {
        holder.child.kill("SIGKILL");
        service.close();
        await store.close();
      }
    }, 60_000);

    it("a holder cut off from the database: its run is lost to everyone, itself included, and its late result is refused", async () => {
      const schema = "fenced_runs";
      const a = await openPostgresStore({ connectionString: url(), schema, maxConnections: 2 });
      const b = await openPostgresStore({ connectionString: url(), schema, maxConnections: 2 });
      let service: ReturnType<typeof observer> | undefined;
      try {
        await a.sessions.create({ key: MAIN, agentId: "main" });
        await a.sessions.create({ key: "agent:main:subagent:far", agentId: "main", depth: 1 });
        await a.runs.record({
          runId: "far",
          childSessionKey: "agent:main:subagent:far",
          requesterSessionKey: MAIN,
          task: "far away",
          cleanup: "keep",
          depth: 1,
          createdAt: Date.now(),
          startedAt: Date.now(),
          status: "running",
          announce: { status: "pending", attempts: 0, idempotencyKey: "announce:far" },
          owner: { pid: 4242, instance: "far", host: ELSEWHERE },
          heartbeatAt: Date.now(),
        });
        expect((await b.runs.get("far"))?.owner?.epoch).toBe(a.member.epoch);
        expect(await b.runs.liveness()).toMatchObject({ orphaned: 0 });

        const old = await cutOff(url(), a);
        await vi.waitFor(() => expect(a.member.epoch).toBeGreaterThan(old), {
          timeout: 10_000,
          interval: 50,
        });
        const seen = await b.runs.liveness();
        expect(seen.live.has(old)).toBe(false);
        expect(seen.live.has(a.member.epoch)).toBe(true);
        expect(seen.orphaned).toBe(1);
        // before anyone ended it: the holder's late result and heartbeat are refused
        const fenced =
          "PostgreSQL store: run far was not recorded: this process no longer holds it (its connection to the database dropped: it is lost)";
        await expect(a.runs.update("far", { status: "done", outcome: { reply: "late" } })).rejects.toThrow(
          fenced,
        );
        await expect(a.runs.update("far", { heartbeatAt: Date.now() })).rejects.toThrow(fenced);

        // a serve on the database ends it lost by itself (its background check), and tells the requester
        service = observer(b);
        const ended = await b.runs.waitForEnd("far", 15_000);
        expect(ended).toMatchObject({
          status: "lost",
          outcome: {
            error: `lost: its owner process 4242 on ${ELSEWHERE} is gone (its connection to the database dropped)`,
          },
        });
        await vi.waitFor(async () => expect(await lostEvents(b)).toHaveLength(1), { timeout: 10_000 });
        // after: nothing but lost is recorded over lost, by the old holder or anyone
        const over = "PostgreSQL store: run far was not recorded: it ended lost";
        await expect(a.runs.update("far", { status: "done", outcome: { reply: "late" } })).rejects.toThrow(
          over,
        );
        await expect(a.runs.record({ ...(ended as RunRecord), status: "done" })).rejects.toThrow(over);
        await expect(b.runs.update("far", { status: "killed" })).rejects.toThrow(over);
        await b.runs.update("far", { collectedAt: 5 });
        expect(await a.runs.get("far")).toMatchObject({
          status: "lost",
          collectedAt: 5,
          outcome: ended?.outcome,
        });
        expect(await b.runs.liveness()).toMatchObject({ orphaned: 0 });
      } finally {
        service?.close();
        await a.close();
        await b.close();
      }
    }, 60_000);
  });
}
