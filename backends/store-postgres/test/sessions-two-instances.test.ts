import { createLivenessHost } from "@clawtools/sessions/testing";
import {
  runLivenessConformance,
  runRegistryTwoInstanceConformance,
  sessionStoreTwoInstanceConformance,
} from "@clawtools/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore, type PostgresStore } from "../src/index.js";
import { type Cluster, HAVE_POSTGRES, SKIP_REASON, startCluster } from "./cluster.js";
import { cutOff } from "./cut-off.js";

if (!HAVE_POSTGRES) console.warn(`@clawtools/store-postgres sessions tests skipped: ${SKIP_REASON}`);

/*
 * The sessions kit's two-instance and liveness steps on PostgreSQL: every instance is a store
 * bundle with its own pool (and LISTEN connection) on one schema, as separate processes or
 * machines have it; each pair or set of hosts gets a fresh schema.
 */
describe.skipIf(!HAVE_POSTGRES)(
  HAVE_POSTGRES
    ? "PostgreSQL sessions, two instances"
    : `PostgreSQL sessions, two instances (skipped: ${SKIP_REASON})`,
  () => {
    const ctx: { cluster?: Cluster } = {};
    const opened: PostgresStore[] = [];
    let schemas = 0;
    const bundles = async (count: number) => {
      const schema = `sess_two_${++schemas}`;
      const made: PostgresStore[] = [];
      // one at a time: the first runs the migrations, the rest find them applied
      for (let i = 0; i < count; i++)
        made.push(
          await openPostgresStore({
            connectionString: ctx.cluster?.url as string,
            schema,
            maxConnections: 4,
          }),
        );
      opened.push(...made);
      return made;
    };

    beforeAll(async () => {
      ctx.cluster = await startCluster();
    }, 120_000);
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });
    afterAll(async () => {
      await ctx.cluster?.stop();
    }, 60_000);

    sessionStoreTwoInstanceConformance(
      async () => {
        const [a, b] = (await bundles(2)) as [PostgresStore, PostgresStore];
        return [a.sessions, b.sessions];
      },
      { name: "PgSessionStore two-instance conformance" },
    );
    runRegistryTwoInstanceConformance(
      async () => {
        const [a, b] = (await bundles(2)) as [PostgresStore, PostgresStore];
        return [a.runs, b.runs];
      },
      { name: "PgRunRegistry two-instance conformance" },
    );
    runLivenessConformance(
      async (count) =>
        Promise.all(
          (await bundles(count)).map((store) =>
            createLivenessHost({
              store: store.sessions,
              runs: store.runs,
              // the holder's death drops its connection: that, not its pid, is what PostgreSQL sees
              onCrash: async () => {
                await cutOff(ctx.cluster?.url as string, store);
              },
            }),
          ),
        ),
      { name: "run liveness on PostgreSQL" },
    );

    it("a kill asked through one database reaches the holder on another pool: the abort request is one field of the stored run", async () => {
      const [a, b] = (await bundles(2)) as [PostgresStore, PostgresStore];
      const [holder, killer] = [
        await createLivenessHost({ store: a.sessions, runs: a.runs }),
        await createLivenessHost({ store: b.sessions, runs: b.runs }),
      ];
      try {
        const spawned = await holder.spawn("held on a");
        const runId = spawned.runId as string;
        const ended = a.runs.waitForEnd(runId, 120_000);
        expect(await killer.kill(runId)).toMatchObject({ status: "ok" });
        const run = await ended;
        expect(run).toMatchObject({ status: "killed", abortRequest: { by: { pid: expect.any(Number) } } });
        expect(run?.abortRequest?.by.instance).not.toBe(run?.owner?.instance);
      } finally {
        await holder.close();
        await killer.close();
      }
    });
  },
);
