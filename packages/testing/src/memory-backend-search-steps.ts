import { expect, it } from "./vitest-api.js";
import { descending } from "./memory-backend-fixtures.js";
import type { MemoryBackendUnderTest } from "./memory-backend-types.js";

/** The search steps of the MemoryBackend suite: ranking in each mode, maxResults and minScore. */
export function memorySearchSteps(seeded: () => Promise<{ backend: MemoryBackendUnderTest }>): void {
  it("keyword, vector and hybrid search rank the related chunk first, best score first", async () => {
    const { backend } = await seeded();
    for (const mode of ["keyword", "vector", "hybrid"] as const) {
      const found = await backend.search("bicycle lawn mower", { mode });
      expect(found.mode, mode).toBe(mode);
      expect(found.hits[0], mode).toMatchObject({ path: "memory/garage.md", startLine: 1, endLine: 1 });
      expect(found.hits[0]!.text).toBe("The garage holds the bicycle and the lawn mower.");
      expect(descending(found.hits), mode).toBe(true);
      for (const hit of found.hits)
        for (const s of [hit.score, hit.vectorScore, hit.textScore]) expect(Number.isFinite(s)).toBe(true);
    }
    expect(
      (await backend.search("bicycle lawn mower", { mode: "keyword" })).hits[0]!.textScore,
    ).toBeGreaterThan(0);
    expect(
      (await backend.search("bicycle lawn mower", { mode: "vector" })).hits[0]!.vectorScore,
    ).toBeGreaterThan(0);
    // the line of a later chunk is cited, not the file's start
    const harvest = await backend.search("harvest September", { mode: "keyword" });
    expect(harvest.hits[0]).toMatchObject({ path: "memory/orchard.md", startLine: 3, endLine: 3 });
    await backend.close();
  });

  it("maxResults caps the hits and minScore drops weaker ones", async () => {
    const { backend } = await seeded();
    const all = await backend.search("the apples orchard garage Dana", { mode: "hybrid", maxResults: 10 });
    expect(all.hits.length).toBeGreaterThanOrEqual(3);
    expect((await backend.search("the apples orchard garage Dana", { maxResults: 2 })).hits).toHaveLength(2);
    const bar = all.hits[1]!.score;
    const strong = await backend.search("the apples orchard garage Dana", {
      maxResults: 10,
      minScore: bar,
    });
    expect(strong.hits.length).toBeGreaterThan(0);
    expect(strong.hits.every((h) => h.score >= bar)).toBe(true);
    expect(strong.hits.length).toBe(all.hits.filter((h) => h.score >= bar).length);
    expect((await backend.search("the apples", { minScore: 1e9 })).hits).toEqual([]);
    expect((await backend.search("zebra quokka", { mode: "keyword" })).hits).toEqual([]);
    await backend.close();
  });
}
