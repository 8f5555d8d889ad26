import { CronExecutor, CronService, type LeaderLease } from "@clawtools/automation";
import { FakeClock } from "@clawtools/automation/testing";
import { describe, expect, it, vi } from "vitest";
import { openPostgresStore, type PostgresStore } from "../src/index.js";

const MAIN = "agent:main:main";

/** A lease that counts the calls made through it (the probes a follower pays). */
function counted(lease: LeaderLease) {
  const calls = { acquire: 0, renew: 0 };
  const spy = Object.create(lease) as LeaderLease;
  spy.acquire = (...args) => {
    calls.acquire++;
    return lease.acquire(...args);
  };
  spy.renew = (...args) => {
    calls.renew++;
    return lease.renew(...args);
  };
  return { spy, calls };
}

/** Followers sleep between lease probes; the leader hears of jobs any process adds (LISTEN/NOTIFY). */
export function followerSuite(url: () => string): void {
  describe("followers sleep, the leader listens", () => {
    it("a follower probes the lease once per probe interval, not at every job's due time; a job added through it fires on time", async () => {
      const clock = new FakeClock(Date.parse("2026-03-01T09:00:00Z"));
      const schema = "followers";
      const stores: PostgresStore[] = [];
      const open = async () => {
        const store = await openPostgresStore({ connectionString: url(), schema, maxConnections: 2 });
        stores.push(store);
        return store;
      };
      const sa = await open();
      const sb = await open();
      const follower = counted(sb.lease);
      const make = (store: PostgresStore, owner: string, lease: LeaderLease) =>
        new CronService({
          store: store.cron,
          lease,
          clock,
          owner,
          probeMs: 1_000,
          executor: new CronExecutor({ sessions: store.sessions, defaultAgentId: "main", clock }),
        });
      const a = make(sa, "A", sa.lease);
      const b = make(sb, "B", follower.spy);
      const settle = async () => {
        await a.idle();
        await b.idle();
      };
      try {
        await a.start();
        await b.start();
        expect((await b.status()).role).toBe("follower");
        // 200 jobs due within 10 s: the leader fires them all, the follower only probes
        const start = clock.now();
        for (let i = 0; i < 200; i++)
          await sa.cron.upsert({
            id: `due-${String(i).padStart(3, "0")}`,
            name: `due ${i}`,
            enabled: true,
            createdAtMs: start,
            updatedAtMs: start,
            schedule: { kind: "at", at: new Date(start + 50 * (i + 1)).toISOString() },
            sessionTarget: "main",
            wakeMode: "now",
            payload: { kind: "systemEvent", text: `due ${i}` },
            state: { nextRunAtMs: start + 50 * (i + 1) },
          });
        const before = follower.calls.acquire;
        await clock.advance(10_000, settle);
        expect(await sa.sessions.history(MAIN, { limit: 500 })).toHaveLength(200);
        // one probe a second (the notices of a few releases may add some), never one per job
        expect(follower.calls.acquire - before).toBeLessThanOrEqual(12);
        expect(follower.calls.renew).toBe(0);

        // a job added through the follower while the leader sleeps: the leader's timer is re-armed
        // by the store's notice, and it fires at its time, not at the leader's next wake-up
        await clock.advance(500, settle);
        const added = await b.add({
          schedule: { kind: "at", at: new Date(clock.now() + 100).toISOString() },
          payload: { kind: "systemEvent", text: "added through the follower" },
        });
        await vi.waitFor(async () => {
          await settle();
          expect(clock.nextDue()).toBeLessThanOrEqual(clock.now() + 100);
        });
        const seen = async () =>
          (await sa.sessions.history(MAIN, { limit: 500 })).filter(
            (m) => m.content === "System: added through the follower",
          );
        await clock.advance(99, settle);
        expect(await seen()).toEqual([]);
        await clock.advance(1, settle);
        // fired at its time (a one-shot deleted after its run), by the leader, once
        expect(await seen()).toMatchObject([{ timestamp: added.state.nextRunAtMs }]);
        expect(await sa.cron.get(added.id)).toBeUndefined();
      } finally {
        await a.stop();
        await b.stop();
        for (const store of stores) await store.close();
      }
    });
  });
}
