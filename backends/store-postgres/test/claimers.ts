import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { oneShot } from "./one-shot-job.js";
import { openPostgresStore } from "../src/index.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");
// tsx runs the fixture from source (core declares it; this package reaches it through core)
const TSX = pathToFileURL(createRequire(path.join(ROOT, "packages/core/package.json")).resolve("tsx")).href;
const FIXTURE = path.join(import.meta.dirname, "fixtures", "claimer.ts");
const MAIN = "agent:main:main";
const JOBS = 60;
const RUN_MS = 300;

interface Claimer {
  child: ChildProcess;
  owner: string;
  /** What this process printed: `start <id>` when a run began, `fired <id>` when its effect landed. */
  lines: string[];
}

function startClaimer(url: string, schema: string): Promise<Claimer> {
  const child = spawn(
    process.execPath,
    ["--conditions=@clawtools/source", "--import", TSX, FIXTURE, url, schema, String(RUN_MS)],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`claimer exited ${code} before it was ready: ${stderr}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      if (line.startsWith("ready ")) resolve({ child, owner: line.slice(6), lines });
      else lines.push(line);
    });
  });
}

const ids = (lines: string[], kind: string) =>
  lines.filter((l) => l.startsWith(`${kind} `)).map((l) => l.slice(kind.length + 1));

/**
 * Real processes, each a scheduler with the leader lease on one database: every one of them
 * claims due jobs (not only the leader), no job fires twice, and a SIGKILLed claimer's claims
 * are taken over within about a probe interval, its cut-off runs run again under the same key.
 */
export function claimerSuite(url: () => string): void {
  describe("every process claims due jobs", () => {
    it("3 processes fire the due jobs between them, none twice; a SIGKILLed claimer's claims are taken over at once", async () => {
      const schema = "claimers";
      const seed = await openPostgresStore({ connectionString: url(), schema, maxConnections: 2 });
      const admin = new pg.Client({ connectionString: url() });
      await admin.connect();
      const claimers: Claimer[] = [];
      try {
        for (let i = 0; i < 3; i++) claimers.push(await startClaimer(url(), schema));
        // 60 one-shots, one every 50 ms, each run taking 300 ms at 2 runs a process: one process
        // alone keeps up with a third of them
        const first = Date.now() + 500;
        for (let i = 0; i < JOBS; i++)
          await seed.cron.upsert(
            oneShot(`j${String(i).padStart(2, "0")}`, first + 50 * i, { deleteAfterRun: true }),
          );

        // once a third have fired, the process holding the most claims is killed mid-run
        const fired = () => claimers.flatMap((c) => ids(c.lines, "fired"));
        await vi.waitFor(() => expect(new Set(fired()).size).toBeGreaterThanOrEqual(JOBS / 3), {
          timeout: 30_000,
          interval: 20,
        });
        const held = await admin.query<{ lease_owner: string; n: number }>(
          `SELECT lease_owner, count(*)::int AS n FROM ${schema}.cron_jobs WHERE lease_owner IS NOT NULL
           GROUP BY lease_owner ORDER BY n DESC`,
        );
        const victim = claimers.find((c) => c.owner === held.rows[0]?.lease_owner) as Claimer;
        expect(victim).toBeDefined();
        victim.child.kill("SIGKILL");
        const killedAt = Date.now();
        await new Promise((resolve) => victim.child.once("exit", resolve));
        const cut = (
          await admin.query<{ id: string }>(`SELECT id FROM ${schema}.cron_jobs WHERE lease_owner = $1`, [
            victim.owner,
          ])
        ).rows.map((r) => r.id);
        expect(cut.length).toBeGreaterThan(0);
        // its claims are taken over within about the probe interval (1 s), not its 2 h claim lease
        await vi.waitFor(
          async () => {
            const left = await admin.query(`SELECT 1 FROM ${schema}.cron_jobs WHERE lease_owner = $1`, [
              victim.owner,
            ]);
            expect(left.rowCount).toBe(0);
          },
          { timeout: 10_000, interval: 20 },
        );
        const takeoverMs = Date.now() - killedAt;
        console.log(`claims of the SIGKILLed claimer taken over after ${takeoverMs} ms`);
        expect(takeoverMs).toBeLessThan(4_000);

        // every job ends fired and removed (one-shots), no claim left
        await vi.waitFor(
          async () => {
            const left = await admin.query(`SELECT count(*)::int AS n FROM ${schema}.cron_jobs`);
            expect(left.rows[0]?.n).toBe(0);
          },
          { timeout: 60_000, interval: 100 },
        );
        const all = Array.from({ length: JOBS }, (_, i) => `j${String(i).padStart(2, "0")}`);
        // each effect landed once: one system event per job in the shared session
        const history = await seed.sessions.history(MAIN, { limit: 500 });
        expect(history.map((m) => String(m.content)).sort()).toEqual(all.map((id) => `System: ${id}`));
        // fired by more than one process, the survivors included
        const survivors = claimers.filter((c) => c !== victim);
        for (const c of survivors) expect(ids(c.lines, "fired").length).toBeGreaterThan(0);
        expect(ids(victim.lines, "fired").length).toBeGreaterThan(0);
        // no job ran twice, except a run the kill cut off (it ran again once, under the same key)
        const starts = new Map<string, number>();
        for (const id of claimers.flatMap((c) => ids(c.lines, "start")))
          starts.set(id, (starts.get(id) ?? 0) + 1);
        for (const id of all) {
          expect(starts.get(id) ?? 0, id).toBeGreaterThanOrEqual(1);
          expect(starts.get(id), id).toBeLessThanOrEqual(cut.includes(id) ? 2 : 1);
        }
        // live processes never ran the same job twice between them
        const survivorStarts = survivors.flatMap((c) => ids(c.lines, "start"));
        expect(new Set(survivorStarts).size).toBe(survivorStarts.length);
      } finally {
        for (const c of claimers)
          if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill("SIGTERM");
        await Promise.all(
          claimers.map((c) =>
            c.child.exitCode !== null || c.child.signalCode !== null
              ? undefined
              : new Promise((resolve) => c.child.once("exit", resolve)),
          ),
        );
        await admin.end();
        await seed.close();
      }
    }, 120_000);
  });
}
