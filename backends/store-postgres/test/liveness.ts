import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { createSessionsPlugin } from "@clawtools/sessions";
import { createScriptedRunner } from "@clawtools/sessions/testing";
import { describe, expect, it } from "vitest";
import { openPostgresStore, type PostgresStore } from "../src/index.js";

/** A process that ran and was killed with SIGKILL: its pid is surely gone. */
async function killedPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 60000)"], { stdio: "ignore" });
  await new Promise((resolve) => child.once("spawn", resolve));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  return child.pid as number;
}

/** The sessions section of a (re)started server on this store. */
function server(store: PostgresStore) {
  const plugin = createSessionsPlugin({
    store: store.sessions,
    runs: store.runs,
    runner: ({ store: s }) => createScriptedRunner({ store: s, script: () => "fresh" }),
  });
  return plugin.serviceFor({
    stateDir: mkdtempSync(path.join(tmpdir(), "pg-live-")),
    workspaceDir: tmpdir(),
  });
}

/** Run liveness with the runs in PostgreSQL: what a crashed process held is ended once, by whoever is alive. */
export function livenessSuite(url: () => string): void {
  describe("run liveness on PostgreSQL", () => {
    it("runs of a killed process end as lost, each requester is told once though two servers reap at once", async () => {
      const schema = "liveness";
      const crashed = await openPostgresStore({ connectionString: url(), schema });
      const pid = await killedPid();
      await crashed.sessions.create({ key: "agent:main:main", agentId: "main" });
      for (let i = 0; i < 3; i++) {
        await crashed.sessions.create({ key: `agent:main:subagent:held${i}`, agentId: "main", depth: 1 });
        await crashed.runs.record({
          runId: `held${i}`,
          childSessionKey: `agent:main:subagent:held${i}`,
          requesterSessionKey: "agent:main:main",
          task: `held ${i}`,
          cleanup: "keep",
          depth: 1,
          createdAt: Date.now() - 1_000,
          startedAt: Date.now() - 1_000,
          status: "running",
          announce: { status: "pending", attempts: 0, idempotencyKey: `announce:held${i}` },
          owner: { pid, instance: "crashed", host: hostname() },
          heartbeatAt: Date.now() - 500,
        });
      }
      await crashed.close();

      const a = await openPostgresStore({ connectionString: url(), schema });
      const b = await openPostgresStore({ connectionString: url(), schema });
      const [sa, sb] = [server(a), server(b)];
      try {
        await Promise.all([sa.reapLost(), sb.reapLost()]);
        for (let i = 0; i < 3; i++)
          expect(await a.runs.get(`held${i}`)).toMatchObject({
            status: "lost",
            outcome: {
              error: `lost: its owner process ${pid} is gone (its connection to the database dropped)`,
            },
            announce: { status: "delivered" },
          });
        expect(await b.runs.listRunning()).toEqual([]);
        const events = (await b.sessions.history("agent:main:main"))
          .map((m) => String(m.content))
          .filter((c) =>
            c.includes(`status: failed: lost: its owner process ${pid} is gone (its connection`),
          );
        expect(events).toHaveLength(3);
        expect(await sa.reapLost()).toEqual([]);
      } finally {
        sa.close();
        sb.close();
        await a.close();
        await b.close();
      }
    });
  });
}
