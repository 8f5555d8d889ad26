import { afterEach, describe, expect, it } from "./vitest-api.js";
import type {
  ConformanceOptions,
  ConformanceRun,
  RunRegistryUnderTest,
  SessionStoreUnderTest,
} from "./sessions-conformance.js";

/**
 * One process (or service instance) holding sub-agent runs on a backend it shares with other
 * hosts. The sessions section's `createLivenessHost` (`@clawtools/sessions/testing`) makes one
 * over any SessionStore and RunRegistry.
 */
export interface LivenessHostUnderTest {
  /** This host's own instances of the shared stores. */
  sessions: SessionStoreUnderTest;
  runs: RunRegistryUnderTest;
  /** The session this host's `spawn` and `kill` act as (the same key on every host). */
  requesterKey: string;
  /**
   * `sessions_spawn` as the requester: a run this host holds that runs until it is killed.
   * Hosts admit at most 3 running children per requester.
   */
  spawn(task: string): Promise<{ status: string; runId?: string; error?: string }>;
  /** Ends the runs whose holder is gone (`lost`, with the reason); returns those it ended. */
  reapLost(): Promise<ConformanceRun[]>;
  /** `subagents kill` of a run as the requester: the tool's result. */
  kill(runId: string): Promise<{ status: string; text?: string }>;
  /** The holder dies as a process does: no more heartbeats or answers, and its pid is gone. */
  crash(): Promise<void>;
  close(): Promise<void>;
}

/** `count` hosts on one fresh backend. */
type Hosts = (count: number) => Promise<LivenessHostUnderTest[]>;

const completionEvents = async (host: LivenessHostUnderTest) =>
  (await host.sessions.history(host.requesterKey))
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    .filter((c) => c.includes("[Internal task completion event]"));

async function spawned(host: LivenessHostUnderTest, task: string): Promise<string> {
  const result = await host.spawn(task);
  expect(result.status, JSON.stringify(result)).toBe("accepted");
  return result.runId as string;
}

/**
 * Declares the run-liveness steps across hosts: a crashed host's runs end `lost` with the reason
 * and the requester is told once, live runs of other hosts are never touched, admission counts
 * live runs only, and a kill reaches a run another live host holds.
 */
export function runLivenessConformance(makeHosts: Hosts, options: ConformanceOptions = {}): void {
  describe(options.name ?? "Run liveness conformance", () => {
    const open: LivenessHostUnderTest[] = [];
    const hosts = async (count: number) => {
      const made = await makeHosts(count);
      open.push(...made);
      return made;
    };
    afterEach(async () => {
      for (const host of open.splice(0)) await host.close();
    });

    it("a crashed host's runs end lost with the reason, the requester told once each, though two hosts reap at once; live runs stay", async () => {
      const [a, b, c] = (await hosts(3)) as [
        LivenessHostUnderTest,
        LivenessHostUnderTest,
        LivenessHostUnderTest,
      ];
      const live = await spawned(a, "live");
      const doomed = [await spawned(b, "doomed 1"), await spawned(b, "doomed 2")];
      // every holder is alive: nobody ends anything
      expect(await a.reapLost()).toEqual([]);
      expect(await c.reapLost()).toEqual([]);
      await b.crash();
      const [byA, byC] = await Promise.all([a.reapLost(), c.reapLost()]);
      expect(new Set([...byA, ...byC].map((r) => r.runId))).toEqual(new Set(doomed));
      for (const runId of doomed) {
        const run = (await c.runs.get(runId)) as ConformanceRun & { outcome?: { error?: string } };
        expect(run.status).toBe("lost");
        expect(run.outcome?.error).toMatch(/^lost: its owner process \d+ .*(is gone|heartbeat)/);
        expect(run.endedAt).toBeGreaterThanOrEqual(run.createdAt);
      }
      expect((await c.runs.get(live))?.status).toBe("running");
      const events = await completionEvents(a);
      for (const runId of doomed) {
        const task = `doomed ${doomed.indexOf(runId) + 1}`;
        expect(events.filter((e) => e.includes(task) && e.includes("failed: lost:"))).toHaveLength(1);
      }
      expect(await a.reapLost()).toEqual([]);
    });

    it("admission counts live runs only: a crashed host's runs stop counting", async () => {
      const [a, b] = (await hosts(2)) as [LivenessHostUnderTest, LivenessHostUnderTest];
      await spawned(a, "a1");
      await spawned(a, "a2");
      await spawned(b, "b1");
      const refused = await a.spawn("one too many");
      expect(refused.status).toBe("forbidden");
      expect(refused.error).toContain("(3/3)");
      await b.crash();
      await spawned(a, "after the crash");
    });

    it("a kill from one host of a run another live host holds: the holder aborts it, it ends killed, the result says ok", async () => {
      const [a, b] = (await hosts(2)) as [LivenessHostUnderTest, LivenessHostUnderTest];
      const target = await spawned(a, "target");
      const bystander = await spawned(a, "bystander");
      const result = await b.kill(target);
      expect(result.status, JSON.stringify(result)).toBe("ok");
      expect((await b.runs.get(target))?.status).toBe("killed");
      expect((await a.runs.get(bystander))?.status).toBe("running");
      expect(await b.reapLost()).toEqual([]);
      // a kill of a run whose holder crashed: nobody to ask, it is ended where the kill is asked
      await a.crash();
      expect((await b.kill(bystander)).status).toBe("done");
      expect((await b.runs.get(bystander))?.status).toBe("lost");
    });
  });
}
