import { sampleCronJob as job } from "@clawtools/testing";
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { openPostgresStore } from "../src/index.js";

const HOUR = 3_600_000;

/** The cluster-wide cap (`claimDue(…, { clusterMax })`): live claims of every process count, dead ones do not. */
export function clusterCapSuite(url: () => string): void {
  describe("a cluster-wide cap on claims", () => {
    it("claimers on three stores never hold more than the cap between them; a release frees a slot, a dead claimer's claims stop counting", async () => {
      const schema = "capped";
      const [a, b, c] = await Promise.all(
        [0, 1, 2].map(() => openPostgresStore({ connectionString: url(), schema, maxConnections: 3 })),
      );
      if (!a || !b || !c) throw new Error("unreachable");
      try {
        for (let i = 0; i < 20; i++) await a.cron.upsert(job(`j${String(i).padStart(2, "0")}`, 1_000 + i));
        const ofA = await a.cron.claimDue(2_000, "A", HOUR, 2, { clusterMax: 5 });
        expect(ofA).toHaveLength(2);
        // two more processes asking at once for 4 each under a cap of 5: 3 between them
        const got = await Promise.all(
          [b, c].map((s, n) => s.cron.claimDue(2_000, `P${n}`, HOUR, 4, { clusterMax: 5 })),
        );
        const claimed = got.flat().map((j) => j.id);
        expect(claimed).toHaveLength(3);
        expect(new Set(claimed).size).toBe(3);
        expect(await c.cron.claimDue(2_000, "P1", HOUR, 4, { clusterMax: 5 })).toEqual([]);
        // without the cap a store still claims (the cap is the scheduler's to ask for): 6 live
        expect(await c.cron.claimDue(2_000, "P1", HOUR, 1)).toHaveLength(1);
        expect(await b.cron.claimDue(2_000, "P0", HOUR, 4, { clusterMax: 6 })).toEqual([]);
        // a release frees one slot
        expect(await a.cron.release(ofA[0]?.id as string, "A", { nextRunAtMs: 50_000 })).toBe(true);
        expect(await c.cron.claimDue(2_000, "P1", HOUR, 4, { clusterMax: 6 })).toHaveLength(1);
        expect(await c.cron.claimDue(2_000, "P1", HOUR, 4, { clusterMax: 6 })).toEqual([]);
        // a's process dies (its liveness connection ends): its one claim left stops counting at once
        const admin = new pg.Client({ connectionString: url() });
        await admin.connect();
        await admin.query("SELECT pg_terminate_backend($1)", [a.member.backendPid]);
        await admin.end();
        let taken = 0;
        await vi.waitFor(
          async () => {
            taken += (await b.cron.claimDue(2_000, "P0", HOUR, 10, { clusterMax: 6 })).length;
            expect(taken).toBe(1);
          },
          { timeout: 10_000, interval: 50 },
        );
        expect(await b.cron.claimDue(2_000, "P0", HOUR, 10, { clusterMax: 6 })).toEqual([]);
      } finally {
        await Promise.all([a, b, c].map((s) => s?.close()));
      }
    });
  });
}
