import pg from "pg";
import { describe, expect, it } from "vitest";
import { openPostgresStore, type PostgresStore } from "../src/index.js";

interface Sent {
  name?: string;
  text: string;
  values: unknown[];
}

interface PlanNode {
  "Node Type": string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

/** Every statement the store sends through its pool, as sent (name, text, values). */
function record(store: PostgresStore): Sent[] {
  const sent: Sent[] = [];
  const pool = (store.sessions as unknown as { db: { pool: pg.Pool } }).db.pool;
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const [first, second] = args as [string | Sent, unknown[] | undefined];
    sent.push(typeof first === "string" ? { text: first, values: second ?? [] } : { ...first });
    return query(...args);
  };
  return sent;
}

/** The executed plan of a statement as the store sent it. */
async function explain(admin: pg.Client, statement: Sent): Promise<PlanNode> {
  const { rows } = await admin.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, statement.values);
  return (rows[0]["QUERY PLAN"] as Array<{ Plan: PlanNode }>)[0]!.Plan;
}

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];
/** Rows every scan node of the plan visited (returned plus filtered out). */
const visited = (plan: PlanNode) =>
  nodes(plan)
    .filter((n) => /Scan/.test(n["Node Type"]))
    .reduce((sum, n) => sum + (n["Actual Rows"] + (n["Rows Removed by Filter"] ?? 0)) * n["Actual Loops"], 0);

/** What the per-operation statements cost the database: a list page reads its page, not the table. */
export function statementPlanSuite(url: () => string): void {
  describe("statement plans", () => {
    it("a session list page after a cursor reads about a page of rows in index order: no sort, no offset, no count", async () => {
      const store = await openPostgresStore({ connectionString: url(), schema: "plans", maxConnections: 2 });
      const admin = new pg.Client({ connectionString: url() });
      await admin.connect();
      try {
        for (let i = 0; i < 1_000; i++)
          await store.sessions.create({
            key: `agent:${i % 4 === 0 ? "ops" : "main"}:s${i}`,
            agentId: i % 4 === 0 ? "ops" : "main",
          });
        // the statistics autovacuum keeps, taken now
        await admin.query("ANALYZE plans.sessions");
        const sent = record(store);
        for (const agentId of ["main", undefined]) {
          const first = await store.sessions.listPage({ ...(agentId ? { agentId } : {}), limit: 300 });
          sent.length = 0;
          const page = await store.sessions.listPage({
            ...(agentId ? { agentId } : {}),
            limit: 50,
            after: first.next!,
          });
          expect(page.entries).toHaveLength(50);
          expect(sent).toHaveLength(1);
          const statement = sent[0]!;
          expect(statement.text).not.toMatch(/OFFSET|count\(/i);
          const plan = await explain(admin, statement);
          expect(nodes(plan).map((n) => n["Node Type"])).not.toContain("Sort");
          // 51 rows (one more says a next page follows) and the other agent's rows passed over on
          // the way if the planner walks the overall index; never the 300 before the cursor
          expect(visited(plan)).toBeLessThanOrEqual(100);
        }
      } finally {
        await admin.end();
        await store.close();
      }
    });
  });
}
