import { describe, expect, it } from "vitest";
import { ParsedEntries } from "../src/parsed-entries.js";
import { LastPages } from "../src/session-page.js";

const entry = (key: string, updatedAt: number) =>
  JSON.stringify({ key, sessionId: key, agentId: "main", createdAt: 1, updatedAt });
const page = (...texts: string[]) => ({ same: false, page: texts.join("\u001e"), n: texts.length });

describe("LastPages", () => {
  it("keeps the text received for a query and answers a `same` from the text that was sent", () => {
    const pages = new LastPages();
    const parsed = new ParsedEntries();
    const key = pages.key("list-page-a", ["main", 3]);
    expect(pages.known(key)).toBeUndefined();
    const first = pages.entries(key, undefined, page(entry("b", 2), entry("a", 1)), parsed);
    expect(first.map((e) => e.key)).toEqual(["b", "a"]);
    const sent = pages.known(key);
    expect(sent?.text).toBe(`${entry("b", 2)}\u001e${entry("a", 1)}`);
    const again = pages.entries(key, sent, { same: true, page: null, n: 2 }, parsed);
    expect(again).toEqual(first);
    expect(again[0]).not.toBe(first[0]);
  });

  it("an empty page forgets the query's text; a page out of the index's order is sorted and not kept", () => {
    const pages = new LastPages();
    const parsed = new ParsedEntries();
    const key = pages.key("list-page", [3]);
    pages.entries(key, undefined, page(entry("a", 1)), parsed);
    expect(pages.entries(key, pages.known(key), { same: false, page: null, n: 0 }, parsed)).toEqual([]);
    expect(pages.known(key)).toBeUndefined();
    // equal times go by key byte-wise ("B" before "a")
    const sorted = pages.entries(key, undefined, page(entry("a", 1), entry("c", 5), entry("B", 1)), parsed);
    expect(sorted.map((e) => e.key)).toEqual(["c", "B", "a"]);
    expect(pages.known(key)).toBeUndefined();
  });

  it("refuses a page whose texts do not split into its rows (an entry holding U+001E is not JSON)", () => {
    const pages = new LastPages();
    expect(() =>
      pages.entries(
        "k",
        undefined,
        { same: false, page: `${entry("a", 1)}\u001e{}`, n: 1 },
        new ParsedEntries(),
      ),
    ).toThrow("a session entry is not valid JSON");
  });

  it("is bounded: the oldest query goes first, and a long page is not kept", () => {
    const pages = new LastPages(2, 200);
    const parsed = new ParsedEntries();
    for (const n of [1, 2, 3]) pages.entries(pages.key("p", [n]), undefined, page(entry(`s${n}`, n)), parsed);
    expect(pages.known(pages.key("p", [1]))).toBeUndefined();
    expect(pages.known(pages.key("p", [3]))).toBeDefined();
    const long = page(entry("x".repeat(150), 2), entry("y", 1));
    pages.entries(pages.key("p", [4]), undefined, long, parsed);
    expect(pages.known(pages.key("p", [4]))).toBeUndefined();
  });
});
