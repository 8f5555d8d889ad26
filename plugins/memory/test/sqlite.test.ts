import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isCorruptionError } from "../src/store/database.js";
import { IndexStore } from "../src/store/index-store.js";
import { openSqlite, sqliteDriver } from "../src/store/sqlite.js";
import { tempDir } from "./helpers.js";

const unit = (v: number[]) => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

const hasBuiltin = process.getBuiltinModule?.("node:sqlite") !== undefined;

describe("the SQLite under the index", () => {
  it("is Node's own node:sqlite where the runtime has it, better-sqlite3 only where it does not", () => {
    expect(sqliteDriver()).toBe(hasBuiltin ? "node:sqlite" : "better-sqlite3");
    const db = openSqlite(":memory:");
    expect(db.driver).toBe(sqliteDriver());
    db.close();
    expect(db.isOpen).toBe(false);
  });

  it("commits a transaction that returns, and leaves nothing of one that throws", () => {
    const db = openSqlite(":memory:");
    db.exec("CREATE TABLE t (x INTEGER)");
    const insert = db.prepare("INSERT INTO t VALUES (?)");
    expect(
      db.transaction(() => {
        insert.run(1);
        return "done";
      }),
    ).toBe("done");
    expect(() =>
      db.transaction(() => {
        insert.run(2);
        throw new Error("half way");
      }),
    ).toThrow("half way");
    // a nested failure undoes only its own part
    db.transaction(() => {
      insert.run(3);
      expect(() =>
        db.transaction(() => {
          insert.run(4);
          throw new Error("inner");
        }),
      ).toThrow("inner");
    });
    expect(db.prepare("SELECT x FROM t ORDER BY x").all()).toEqual([{ x: 1 }, { x: 3 }]);
    db.close();
  });

  it("names a file that is not a database as corruption, whichever driver reads it", () => {
    const file = path.join(tempDir(), "junk.sqlite");
    writeFileSync(file, "definitely not SQLite, just some bytes ".repeat(200));
    let caught: unknown;
    try {
      const db = openSqlite(file);
      db.exec("SELECT * FROM sqlite_master");
    } catch (error) {
      caught = error;
    }
    expect(isCorruptionError(caught)).toBe(true);
    expect(isCorruptionError(new Error("file is not a database"))).toBe(false);
  });

  it("finds nearest neighbours the same with sqlite-vec and with the in-memory scan", async () => {
    const dir = tempDir();
    const rows = [
      { id: 1, vector: unit([1, 0, 0]) },
      { id: 2, vector: unit([0.9, 0.1, 0]) },
      { id: 3, vector: unit([0, 1, 0]) },
      { id: 4, vector: unit([0, 0, 1]) },
    ];
    const results = [];
    for (const vec of [true, false]) {
      const store = new IndexStore(path.join(dir, `index-${vec}.sqlite`), 3, vec);
      if (vec) expect(store.vec).toBe(true); // sqlite-vec is an installed optional dependency here
      store.applyChanges(
        [],
        [
          {
            path: "MEMORY.md",
            hash: "h",
            mtime: 1,
            size: 1,
            chunks: rows.map((r) => ({
              startLine: r.id,
              endLine: r.id,
              text: `chunk ${r.id}`,
              hash: `${r.id}`,
            })),
          },
        ],
      );
      store.storeVectors(rows);
      const found = await store.vectorCandidates(unit([1, 0.05, 0]), 2);
      store.close();
      results.push(found);
    }
    expect(results[0]!.map((c) => c.id)).toEqual([1, 2]);
    expect(results[1]!.map((c) => c.id)).toEqual([1, 2]);
    for (const [i, c] of results[0]!.entries()) expect(c.score).toBeCloseTo(results[1]![i]!.score, 5);
  });

  it("an index written without sqlite-vec gets its vec0 table filled when reopened with it", async () => {
    const dir = tempDir();
    const file = path.join(dir, "index.sqlite");
    const plain = new IndexStore(file, 3, false);
    const ids = Array.from({ length: 2500 }, (_, i) => i + 1);
    plain.applyChanges(
      [],
      [
        {
          path: "MEMORY.md",
          hash: "h",
          mtime: 1,
          size: 1,
          chunks: ids.map((id) => ({ startLine: id, endLine: id, text: `chunk ${id}`, hash: `${id}` })),
        },
      ],
    );
    plain.storeVectors(ids.map((id) => ({ id, vector: unit([1, id / 1000, 0]) })));
    plain.close();
    const vec = new IndexStore(file, 3, true);
    expect(vec.vec).toBe(true);
    expect((await vec.vectorCandidates(unit([1, 2.5, 0]), 1))[0]!.id).toBe(2500);
    expect((await vec.vectorCandidates(unit([1, 0, 0]), 1))[0]!.id).toBe(1);
    vec.close();
  });

  it("the in-memory index loads the stored vectors page by page, the event loop free between pages", async () => {
    const file = path.join(tempDir(), "index.sqlite");
    const writer = new IndexStore(file, 16, false);
    const ids = Array.from({ length: 9000 }, (_, i) => i + 1); // three pages of 4,096
    // well-separated directions: each vector's nearest neighbour is itself
    const vectorOf = (id: number) =>
      unit(Array.from({ length: 16 }, (_, j) => Math.sin(id * 12.9898 + j * 78.233)));
    writer.applyChanges(
      [],
      [
        {
          path: "MEMORY.md",
          hash: "h",
          mtime: 1,
          size: 1,
          chunks: ids.map((id) => ({ startLine: id, endLine: id, text: `chunk ${id}`, hash: `${id}` })),
        },
      ],
    );
    writer.storeVectors(ids.map((id) => ({ id, vector: vectorOf(id) })));
    writer.close();
    const reader = new IndexStore(file, 16, false);
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const first = await reader.vectorCandidates(vectorOf(1), 1);
    expect(turned).toBe(true);
    expect(first[0]!.id).toBe(1);
    // ids on every page are found: one past a page boundary, the last
    for (const id of [4097, 8193, 9000])
      expect((await reader.vectorCandidates(vectorOf(id), 1))[0]!.id).toBe(id);
    reader.close();
  });

  it("the in-memory index sees vectors another connection stored, replaced or removed since it loaded", async () => {
    const file = path.join(tempDir(), "index.sqlite");
    const [a, b] = [new IndexStore(file, 3, false), new IndexStore(file, 3, false)];
    const note = (store: IndexStore, name: string, count: number) =>
      store.applyChanges(
        [],
        [
          {
            path: name,
            hash: name,
            mtime: 1,
            size: 1,
            chunks: Array.from({ length: count }, (_, i) => ({
              startLine: i + 1,
              endLine: i + 1,
              text: `${name} ${i}`,
              hash: `${name}${i}`,
            })),
          },
        ],
      );
    const idsOf = (store: IndexStore, name: string) => store.chunksOf([name], 100);
    note(a, "a.md", 2);
    a.storeVectors(idsOf(a, "a.md").map((id, i) => ({ id, vector: unit([1, i, 0]) })));
    // a's index is loaded here
    expect((await a.vectorCandidates(unit([0, 0, 1]), 1))[0]!.id).toBe(idsOf(a, "a.md")[0]);

    // b, another connection (another serve on the same index), stores a closer vector
    note(b, "b.md", 1);
    const [bId] = idsOf(b, "b.md");
    b.storeVectors([{ id: bId!, vector: unit([0, 0, 1]) }]);
    const found = await a.vectorCandidates(unit([0, 0, 1]), 1);
    expect(found[0]).toEqual({ id: bId, score: expect.closeTo(1, 5) });

    // a's own write after b's keeps nothing stale: b's vector is still there
    note(a, "c.md", 1);
    a.storeVectors(idsOf(a, "c.md").map((id) => ({ id, vector: unit([0, 1, 0]) })));
    expect((await a.vectorCandidates(unit([0, 0, 1]), 1))[0]!.id).toBe(bId);
    expect((await a.vectorCandidates(unit([0, 1, 0]), 1))[0]!.id).toBe(idsOf(a, "c.md")[0]);

    // an empty write (a batch whose embedder failed) changes nothing the others must read again
    const generation = a.meta("vectors_generation");
    b.storeVectors([]);
    b.applyChanges([], [], []);
    expect(a.meta("vectors_generation")).toBe(generation);

    // b removes its note: a no longer finds it
    b.applyChanges(["b.md"], []);
    expect((await a.vectorCandidates(unit([0, 0, 1]), 3)).map((c) => c.id)).not.toContain(bId);

    // b empties the index for another model and writes under the same ids: a scores the new vectors
    b.resetForModel("other-model");
    note(b, "d.md", 1);
    const [dId] = idsOf(b, "d.md");
    b.storeVectors([{ id: dId!, vector: unit([0, 0, 1]) }]);
    const after = await a.vectorCandidates(unit([0, 0, 1]), 5);
    expect(after).toEqual([{ id: dId, score: expect.closeTo(1, 5) }]);
    a.close();
    b.close();
  });

  it("a vector write that fails leaves the in-memory index agreeing with what is stored", async () => {
    const store = new IndexStore(path.join(tempDir(), "index.sqlite"), 3, false);
    store.applyChanges(
      [],
      [
        {
          path: "a.md",
          hash: "h",
          mtime: 1,
          size: 1,
          chunks: [{ startLine: 1, endLine: 1, text: "a", hash: "a" }],
        },
      ],
    );
    const [id] = store.chunksOf(["a.md"], 1);
    store.storeVectors([{ id: id!, vector: unit([1, 0, 0]) }]);
    expect((await store.vectorCandidates(unit([1, 0, 0]), 1))[0]!.id).toBe(id);
    // the second row has the wrong dimensions: the whole write is rolled back
    expect(() =>
      store.storeVectors([
        { id: id!, vector: unit([0, 1, 0]) },
        { id: id! + 1, vector: [1, 0] },
      ]),
    ).toThrow();
    const [best] = await store.vectorCandidates(unit([1, 0, 0]), 1);
    expect(best).toEqual({ id, score: expect.closeTo(1, 5) });
    store.close();
  });

  it("refuses SQL's load_extension() once sqlite-vec is in", () => {
    const store = new IndexStore(":memory:", 3, true);
    const db = (store as unknown as { db: ReturnType<typeof openSqlite> }).db;
    expect(() => db.prepare("SELECT load_extension('/tmp/nothing.so')").get()).toThrow(/not authorized/);
    store.close();
  });
});
