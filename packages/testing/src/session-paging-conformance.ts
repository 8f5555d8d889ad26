import { delay } from "@clawtools/core/time";
import { describe, expect, it } from "./vitest-api.js";
import type {
  ConformanceOptions,
  ConformanceSession,
  SessionStoreUnderTest,
} from "./sessions-conformance.js";

/*
 * Conformance of the optional `SessionStore.listPage`: pages in `list`'s newest-first order
 * (equal update times by key), each starting after the cursor the previous one returned, so a
 * client walks the whole store a page at a time without skipping or repeating a session, even
 * while sessions are added. For the stores that implement it:
 *
 *   sessionStorePagingConformance(() => new MyStore(freshDatabase()));
 */

export interface SessionPageCursor {
  updatedAt: number;
  key: string;
}

export interface PagedSessionStoreUnderTest extends SessionStoreUnderTest {
  listPage?(query: {
    agentId?: string;
    updatedSince?: number;
    limit: number;
    after?: SessionPageCursor;
  }): Promise<{ entries: ConformanceSession[]; next?: SessionPageCursor }>;
}

type Factory<T> = () => T | Promise<T>;
type Query = Parameters<NonNullable<PagedSessionStoreUnderTest["listPage"]>>[0];

const order = (a: ConformanceSession, b: ConformanceSession) =>
  b.updatedAt - a.updatedAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Every page from the first, following `next` until it is absent. */
async function walk(store: PagedSessionStoreUnderTest, query: Omit<Query, "after">) {
  const pages: ConformanceSession[][] = [];
  let after: SessionPageCursor | undefined;
  do {
    const page = await store.listPage!({ ...query, ...(after ? { after } : {}) });
    expect(page.entries.length).toBeLessThanOrEqual(query.limit);
    pages.push(page.entries);
    after = page.next;
    if (after)
      expect(after).toEqual({ updatedAt: page.entries.at(-1)!.updatedAt, key: page.entries.at(-1)!.key });
  } while (after && pages.length < 1000);
  return pages;
}

/** 13 sessions in two agents, some created in the same millisecond (ties ordered by key). */
async function seed(store: PagedSessionStoreUnderTest) {
  for (let i = 0; i < 13; i++) {
    await store.create({
      key: `agent:${i % 3 ? "main" : "ops"}:s${String(i).padStart(2, "0")}`,
      agentId: i % 3 ? "main" : "ops",
    });
    if (i % 4 === 0) await delay(2);
  }
}

/** Declares the paging suite; the factory must return an empty store that has `listPage`. */
export function sessionStorePagingConformance(
  factory: Factory<PagedSessionStoreUnderTest>,
  options: ConformanceOptions = {},
): void {
  const paged = async () => {
    const store = await factory();
    if (typeof store.listPage !== "function") throw new Error("the store under test has no listPage");
    return store;
  };
  describe(options.name ?? "SessionStore paging conformance", () => {
    it("pages walk every session once, newest first, ties by key", async () => {
      const store = await paged();
      await seed(store);
      const all = await store.list();
      const pages = await walk(store, { limit: 4 });
      expect(pages.map((p) => p.length)).toEqual([4, 4, 4, 1]);
      const walked = pages.flat();
      expect(walked.map((e) => e.key)).toEqual([...all].sort(order).map((e) => e.key));
      expect(walked).toEqual([...walked].sort(order));
      // a page as large as the store has no next page
      const whole = await store.listPage!({ limit: 13 });
      expect(whole.entries).toHaveLength(13);
      expect(whole.next).toBeUndefined();
    });

    it("filters by agent and by update time while paging", async () => {
      const store = await paged();
      await seed(store);
      const ops = (await walk(store, { agentId: "ops", limit: 2 })).flat();
      expect(ops.map((e) => e.key)).toEqual(
        (await store.list({ agentId: "ops" })).sort(order).map((e) => e.key),
      );
      expect(ops.every((e) => e.agentId === "ops")).toBe(true);
      const since = [...(await store.list())].sort(order)[5]!.updatedAt;
      const recent = (await walk(store, { updatedSince: since, limit: 3 })).flat();
      expect(recent.map((e) => e.key)).toEqual(
        (await store.list({ updatedSince: since })).sort(order).map((e) => e.key),
      );
      expect(await store.listPage!({ updatedSince: Date.now() + 60_000, limit: 5 })).toEqual({ entries: [] });
    });

    it("a session created mid-walk is not met, and none is skipped or repeated", async () => {
      const store = await paged();
      await seed(store);
      const before = (await store.list()).map((e) => e.key).sort();
      const first = await store.listPage!({ limit: 5 });
      await delay(2);
      await store.create({ key: "agent:main:late", agentId: "main" });
      const rest: ConformanceSession[] = [];
      let after = first.next;
      while (after) {
        const page = await store.listPage!({ limit: 5, after });
        rest.push(...page.entries);
        after = page.next;
      }
      const keys = [...first.entries, ...rest].map((e) => e.key);
      expect(new Set(keys).size).toBe(keys.length);
      expect([...keys].sort()).toEqual(before);
    });

    it("pages are copies, and bad queries are refused with the reason", async () => {
      const store = await paged();
      await seed(store);
      const page = await store.listPage!({ limit: 1 });
      page.entries[0]!.label = "changed here";
      expect((await store.get(page.entries[0]!.key))?.label).toBeUndefined();
      await expect(store.listPage!({ limit: 0 })).rejects.toThrow(/limit/);
      await expect(store.listPage!({ limit: 1.5 })).rejects.toThrow(/limit/);
      await expect(store.listPage!({ limit: 2, after: { key: "x" } as never })).rejects.toThrow(/after/);
    });
  });
}
