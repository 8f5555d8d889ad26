import { describe, expect, it } from "vitest";
import { heldWriteLocks, withWriteLock, withWriteLocks } from "./write-lock.js";

const tick = () => new Promise((r) => setImmediate(r));
// test files share a worker process: another file's writes may hold locks of their own meanwhile
const heldOf = (keys: string[]) => heldWriteLocks().filter((key) => keys.includes(key));

describe("write lock", () => {
  it("runs holders of one key one after another and forgets the key afterwards", async () => {
    const log: string[] = [];
    const job = (name: string) =>
      withWriteLock("/w/a.txt", async () => {
        log.push(`${name} start`);
        await tick();
        log.push(`${name} end`);
      });
    await Promise.all([job("1"), job("2"), job("3")]);
    expect(log).toEqual(["1 start", "1 end", "2 start", "2 end", "3 start", "3 end"]);
    expect(heldOf(["/w/a.txt"])).toEqual([]);
  });

  it("a failing holder releases the lock", async () => {
    await expect(withWriteLock("k", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await withWriteLock("k", async () => "next")).toBe("next");
  });

  it("overlapping key sets in opposite orders never deadlock", async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        withWriteLocks(i % 2 ? ["b", "a", "c"] : ["c", "b", "a", "a"], async () => {
          await tick();
          return i;
        }),
      ),
    );
    expect(results).toHaveLength(50);
    expect(heldOf(["a", "b", "c"])).toEqual([]);
  });
});
