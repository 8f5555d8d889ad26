import pg from "pg";
import { describe, expect, it } from "vitest";
import { openPostgresStore } from "../src/index.js";

/** The page statements' answers as the store received them (whether the server said `same`). */
function answers(
  store: Awaited<ReturnType<typeof openPostgresStore>>,
): Array<{ same: boolean; page: string | null }> {
  const seen: Array<{ same: boolean; page: string | null }> = [];
  const db = (store.sessions as unknown as { db: { prepared: (...args: unknown[]) => Promise<unknown[]> } })
    .db;
  const prepared = db.prepared.bind(db);
  db.prepared = async (...args: unknown[]) => {
    const rows = await prepared(...args);
    if (String(args[0]).startsWith("list-page")) seen.push(rows[0] as { same: boolean; page: string | null });
    return rows;
  };
  return seen;
}

/**
 * A page read again is answered `same` by the server when its rows are the text last received,
 * and never served from an older text: every change by another process shows on the next read.
 */
export function pageReadSuite(url: () => string): void {
  describe("list pages read again", () => {
    it("an unchanged page is not sent again; a change by another process shows on the very next read", async () => {
      const schema = "page_reads";
      const a = await openPostgresStore({ connectionString: url(), schema, maxConnections: 2 });
      const b = await openPostgresStore({ connectionString: url(), schema, maxConnections: 2 });
      try {
        for (let i = 0; i < 30; i++) await a.sessions.create({ key: `agent:main:s${i}`, agentId: "main" });
        const seen = answers(a);
        const first = await a.sessions.listPage({ agentId: "main", limit: 10 });
        const query = { agentId: "main", limit: 10, after: first.next! };
        const page = await a.sessions.listPage(query);
        expect(seen.at(-1)).toMatchObject({ same: false });
        // read again: the server finds the same rows and sends no text; the entries are equal,
        // and new objects (a caller's change to one stays its own)
        page.entries[0]!.label = "changed by the caller";
        const again = await a.sessions.listPage(query);
        expect(seen.at(-1)).toEqual({ same: true, page: null, n: 11 });
        expect(again.entries.map((e) => e.key)).toEqual(page.entries.map((e) => e.key));
        expect(again.entries[0]!.label).toBeUndefined();
        expect(again.next).toEqual(page.next);

        // another process changes an entry of that page (label only: its place stays)
        const target = page.entries[3]!.key;
        await b.sessions.patch(target, { label: "set elsewhere" });
        const after = await a.sessions.listPage({ agentId: "main", limit: 10 });
        expect(after.entries[0]).toMatchObject({ key: target, label: "set elsewhere" });
        // the same page query as before: it lost that entry and gained the next one
        const moved = await a.sessions.listPage(query);
        expect(seen.at(-1)).toMatchObject({ same: false });
        expect(moved.entries.map((e) => e.key)).not.toContain(target);
        // a change in place: the same keys, one label different, seen at once
        const inPlace = moved.entries[2]!;
        const admin = new pg.Client({ connectionString: url() });
        await admin.connect();
        try {
          await admin.query(`UPDATE ${schema}.sessions SET entry = $2 WHERE key = $1`, [
            inPlace.key,
            JSON.stringify({ ...inPlace, label: "written in place" }),
          ]);
          const fresh = await a.sessions.listPage(query);
          expect(fresh.entries[2]).toMatchObject({ key: inPlace.key, label: "written in place" });
          // and a deleted entry is gone from the next read
          await b.sessions.delete(inPlace.key);
          expect((await a.sessions.listPage(query)).entries.map((e) => e.key)).not.toContain(inPlace.key);
          // a stored entry holding a raw U+001E is not JSON: refused, as any unparsable entry is
          await admin.query(`UPDATE ${schema}.sessions SET entry = $2 WHERE key = $1`, [
            moved.entries[4]!.key,
            `${JSON.stringify(moved.entries[4])}\u001e{}`,
          ]);
          await expect(a.sessions.listPage(query)).rejects.toThrow("a session entry is not valid JSON");
        } finally {
          await admin.end();
        }
        // an empty page stays empty, read twice
        expect(await a.sessions.listPage({ agentId: "nobody", limit: 5 })).toEqual({ entries: [] });
        expect(await a.sessions.listPage({ agentId: "nobody", limit: 5 })).toEqual({ entries: [] });
      } finally {
        await a.close();
        await b.close();
      }
    });

    it("rows written by one transaction, all at one time: a deleted row's place taken by the next shows at once", async () => {
      const schema = "page_versions";
      const a = await openPostgresStore({ connectionString: url(), schema, maxConnections: 2 });
      const admin = new pg.Client({ connectionString: url() });
      await admin.connect();
      try {
        // one transaction writes every row (one xmin for all), all at the same time (keys decide)
        await a.sessions.create({ key: "agent:main:seed", agentId: "main" });
        const [seed] = (await admin.query(`SELECT entry FROM ${schema}.sessions`)).rows as Array<{
          entry: string;
        }>;
        const base = JSON.parse(seed!.entry) as Record<string, unknown>;
        await admin.query("BEGIN");
        await admin.query(`DELETE FROM ${schema}.sessions`);
        for (let i = 0; i < 20; i++) {
          const key = `agent:main:k${String(i).padStart(2, "0")}`;
          await admin.query(
            `INSERT INTO ${schema}.sessions (key, session_id, agent_id, created_at, updated_at, entry)
             VALUES ($1, $2, 'main', 1000, 1000, $3)`,
            [
              key,
              `id-${i}`,
              JSON.stringify({ ...base, key, sessionId: `id-${i}`, createdAt: 1000, updatedAt: 1000 }),
            ],
          );
        }
        await admin.query("COMMIT");
        const seen = answers(a);
        const query = { agentId: "main", limit: 5 };
        const keys = async () => (await a.sessions.listPage(query)).entries.map((e) => e.key);
        expect(await keys()).toEqual(["k00", "k01", "k02", "k03", "k04"].map((k) => `agent:main:${k}`));
        expect(await keys()).toHaveLength(5);
        expect(seen.at(-1)).toMatchObject({ same: true });
        // one writer, one time for all: dropping k02 shifts k05 in, and that shows
        await admin.query(`DELETE FROM ${schema}.sessions WHERE key = 'agent:main:k02'`);
        expect(await keys()).toEqual(["k00", "k01", "k03", "k04", "k05"].map((k) => `agent:main:${k}`));
        expect(seen.at(-1)).toMatchObject({ same: false });
        expect(await keys()).toHaveLength(5);
        expect(seen.at(-1)).toMatchObject({ same: true });
        // a rewrite moves every row and changes none: the same text, still answered `same`
        await admin.query(`VACUUM FULL ${schema}.sessions`);
        expect(await keys()).toEqual(["k00", "k01", "k03", "k04", "k05"].map((k) => `agent:main:${k}`));
        expect(seen.at(-1)).toMatchObject({ same: true });
      } finally {
        await admin.end();
        await a.close();
      }
    });

    it("a one-message append commits without waiting for the WAL flush (its filter sets it) and writes its row", async () => {
      const store = await openPostgresStore({
        connectionString: url(),
        schema: "append_async",
        maxConnections: 2,
      });
      const admin = new pg.Client({ connectionString: url() });
      await admin.connect();
      try {
        await store.sessions.create({ key: "agent:main:x", agentId: "main" });
        const db = store.sessions as unknown as { db: { pool: pg.Pool } };
        const sent: string[] = [];
        const query = db.db.pool.query.bind(db.db.pool) as (...args: unknown[]) => unknown;
        (db.db.pool as unknown as { query: (...args: unknown[]) => unknown }).query = (
          ...args: unknown[]
        ) => {
          sent.push((args[0] as { text: string }).text);
          return query(...args);
        };
        await store.sessions.append("agent:main:x", [{ role: "user", content: "hi", timestamp: 1 }]);
        expect(sent).toHaveLength(1);
        // the same statement inside a transaction of its own: once it wrote, the setting is off
        await admin.query("BEGIN");
        const written = await admin.query(sent[0]!, ["agent:main:x", '{"role":"user"}']);
        expect(written.rowCount).toBe(1);
        expect((await admin.query("SHOW synchronous_commit")).rows[0].synchronous_commit).toBe("off");
        await admin.query("ROLLBACK");
        expect((await store.sessions.history("agent:main:x")).map((m) => m.content)).toEqual(["hi"]);
      } finally {
        await admin.end();
        await store.close();
      }
    });
  });
}
