import { CronExecutor, CronService } from "@clawtools/automation";
import { FakeClock } from "@clawtools/automation/testing";
import { sampleCronJob as job } from "@clawtools/testing";
import { describe, expect, it, vi } from "vitest";
import { openPostgresStore, type PostgresStore } from "../src/index.js";
import { cutOff } from "./cut-off.js";

const HOUR = 3_600_000;

/**
 * Claims and the leader lease are bound to their holder's connection: when it drops, they are
 * free at once (no waiting out an hour's lease), and the holder's late writes are refused.
 */
export function connectionLivenessSuite(url: () => string): void {
  describe("liveness bound to the connection", () => {
    it("a holder cut off: its lease and claims are free at once, its late writes are fenced, it comes back with a newer epoch", async () => {
      const schema = "bound";
      const a = await openPostgresStore({ connectionString: url(), schema, maxConnections: 2 });
      const b = await openPostgresStore({ connectionString: url(), schema, maxConnections: 2 });
      try {
        expect(b.member.epoch).toBeGreaterThan(a.member.epoch);
        await a.cron.upsert(job("held", 1_000));
        expect(await a.cron.claimDue(1_000, "A", HOUR, 5)).toHaveLength(1);
        expect(await a.lease.acquire("cron", "A", HOUR)).toBe(true);
        expect(await b.lease.holder("cron")).toMatchObject({ owner: "A", epoch: a.member.epoch });
        // alive: an hour's lease and claim hold against B
        expect(await b.lease.acquire("cron", "B", HOUR)).toBe(false);
        expect(await b.cron.claim("held", 2_000, "B", HOUR)).toBeUndefined();
        expect(await b.cron.orphans(2_000)).toEqual([]);

        const old = await cutOff(url(), a);
        // the lease's hour is not waited out: B takes it as soon as PostgreSQL has seen the drop
        await vi.waitFor(async () => expect(await b.lease.acquire("cron", "B", HOUR)).toBe(true), {
          timeout: 10_000,
          interval: 50,
        });
        expect(await b.lease.holder("cron")).toMatchObject({ owner: "B", epoch: b.member.epoch });
        // the dead claim is listed for recovery, and a recovery claim takes it at once
        expect((await b.cron.orphans(2_000)).map((j) => j.id)).toEqual(["held"]);
        // a scan for due jobs leaves a dead run to recovery (its effect may be recorded)
        expect(await b.cron.claimDue(2_000, "B", HOUR, 5)).toEqual([]);
        expect((await b.cron.claim("held", 2_000, "B", HOUR))?.state.runningAtMs).toBe(2_000);

        // A comes back with a newer epoch; what it wrote under the old one is refused
        await vi.waitFor(() => expect(a.member.epoch).toBeGreaterThan(old), {
          timeout: 10_000,
          interval: 50,
        });
        expect(a.member.epoch).toBeGreaterThan(b.member.epoch);
        await expect(
          a.cron.appendRun({ ts: 3_000, jobId: "held", action: "finished", status: "ok", runAtMs: 1_000 }),
        ).rejects.toThrow(
          "PostgreSQL store: the run of cron job held was not recorded: this process no longer holds its claim",
        );
        expect(await a.cron.release("held", "A", { lastRunStatus: "ok" })).toBe(false);
        expect(await a.lease.renew("cron", "A", HOUR)).toBe(false);
        expect((await b.cron.readRuns("held")).total).toBe(0);
        // the claim's new holder records and releases as usual
        await b.cron.appendRun({
          ts: 3_000,
          jobId: "held",
          action: "finished",
          status: "ok",
          runAtMs: 2_000,
        });
        expect(await b.cron.release("held", "B", { lastRunStatus: "ok", nextRunAtMs: 9_000 })).toBe(true);
        expect((await a.cron.get("held"))?.state).toMatchObject({ lastRunStatus: "ok", nextRunAtMs: 9_000 });
      } finally {
        await a.close();
        await b.close();
      }
    });

    it("a follower scheduler takes over from a leader cut off from the database, long before the lease would end, and recovers its run", async () => {
      const clock = new FakeClock(Date.parse("2026-03-01T09:00:00Z"));
      const schema = "takeover";
      const stores = [
        await openPostgresStore({ connectionString: url(), schema, maxConnections: 2 }),
        await openPostgresStore({ connectionString: url(), schema, maxConnections: 2 }),
      ] as const;
      const [sa, sb] = stores;
      const leaderTtlMs = 10 * 60_000;
      const service = (store: PostgresStore, owner: string) =>
        new CronService({
          store: store.cron,
          lease: store.lease,
          clock,
          owner,
          leaderTtlMs,
          probeMs: 1_000,
          executor: new CronExecutor({ sessions: store.sessions, defaultAgentId: "main", clock }),
        });
      const a = service(sa, "A");
      const b = service(sb, "B");
      try {
        await a.start();
        await b.start();
        expect((await a.status()).role).toBe("leader");
        expect(await b.status()).toMatchObject({
          role: "follower",
          leader: { owner: "A", epoch: sa.member.epoch },
          timings: { leaderLeaseMs: leaderTtlMs, probeMs: 1_000 },
        });
        // a run A had started when it died: marked running under A's claim
        await sa.cron.upsert(job("cut", clock.now() + HOUR));
        expect(await sa.cron.claim("cut", clock.now(), "A", HOUR)).toBeDefined();
        await cutOff(url(), sa);
        // A stops: a lease release under its dead epoch is fenced too, so B must find out by itself
        await a.stop().catch(() => {});
        expect(await sb.lease.holder("cron")).toBeUndefined();
        // B's next probes find the lease free; far less time than the lease passes
        for (let i = 0; i < 50 && (await b.status()).role !== "leader"; i++) {
          await clock.advance(1_000, () => b.idle());
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const took = await b.status();
        expect(took).toMatchObject({ role: "leader", leader: { owner: "B" } });
        expect(clock.now() - Date.parse("2026-03-01T09:00:00Z")).toBeLessThan(leaderTtlMs);
        await b.idle();
        // the cut-off run was recorded interrupted and ran again, under B
        const runs = (await b.runs("cut")).entries.map((e) => e.status);
        expect(runs).toContain("interrupted");
        expect(await sb.cron.orphans(clock.now())).toEqual([]);
      } finally {
        await b.stop();
        for (const store of stores) await store.close();
      }
    });
  });
}
