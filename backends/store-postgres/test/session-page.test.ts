import { describe, expect, it } from "vitest";
import { pageEntries } from "../src/session-page.js";

const entry = (key: string, updatedAt: number) =>
  JSON.stringify({ key, sessionId: key, agentId: "main", createdAt: 1, updatedAt });

describe("a session page's aggregated row", () => {
  it("reads the entries in the order given when it is the index's: newest first, ties by key", () => {
    const page = [entry("b", 9), entry("a", 5), entry("c", 5)].join(",");
    expect(pageEntries(page).map((e) => e.key)).toEqual(["b", "a", "c"]);
    expect(pageEntries(null)).toEqual([]);
  });

  it('puts entries back in index order when the row did not keep it, ties byte-wise as COLLATE "C"', () => {
    // U+FF5E sorts before U+1F600 in UTF-8 bytes, after it in UTF-16 code units
    const page = [entry("\u{1F600}", 5), entry("a", 1), entry("\uFF5E", 5), entry("z", 7)].join(",");
    expect(pageEntries(page).map((e) => e.key)).toEqual(["z", "\uFF5E", "\u{1F600}", "a"]);
  });

  it("names a torn entry", () => {
    expect(() => pageEntries(`${entry("a", 1)},{torn`)).toThrow(
      "PostgreSQL store: a session entry is not valid JSON",
    );
  });
});
