import { describe, expect, it } from "vitest";
import { ParsedEntries } from "../src/parsed-entries.js";

const text = (i: number) =>
  JSON.stringify({
    key: `agent:main:s${i}`,
    sessionId: `id-${i}`,
    agentId: "main",
    createdAt: i,
    updatedAt: i,
  });

describe("ParsedEntries", () => {
  it("hands out a new object each time, equal to the text's value: a caller's change stays its own", () => {
    const parsed = new ParsedEntries();
    const first = parsed.parse(text(1), "e");
    first.label = "changed by a caller";
    const second = parsed.parse(text(1), "e");
    expect(second).toEqual(JSON.parse(text(1)));
    expect(second).not.toBe(first);
    expect(parsed.size).toBe(1);
  });

  it("reuses an entry only for the very same text: any other text is parsed", () => {
    const parsed = new ParsedEntries();
    parsed.parse(text(1), "e");
    const changed = text(1).replace('"updatedAt":1', '"updatedAt":2');
    expect(parsed.parse(changed, "e").updatedAt).toBe(2);
    expect(parsed.parse(text(1), "e").updatedAt).toBe(1);
  });

  it("keeps no entry with nested values (a shallow copy would share them): those are parsed every time", () => {
    const parsed = new ParsedEntries();
    const nested = JSON.stringify({ key: "k", origin: { channel: "x" }, tags: ["a"] });
    const first = parsed.parse(nested, "e") as unknown as { origin: { channel: string }; tags: string[] };
    first.origin.channel = "changed";
    first.tags.push("b");
    expect(parsed.parse(nested, "e")).toEqual(JSON.parse(nested));
    expect(parsed.size).toBe(0);
  });

  it("keeps an own __proto__ key as a key, as JSON.parse does", () => {
    const parsed = new ParsedEntries();
    const odd = '{"key":"k","__proto__":"x"}';
    parsed.parse(odd, "e");
    const again = parsed.parse(odd, "e");
    expect(Object.getPrototypeOf(again)).toBe(Object.prototype);
    expect(Object.hasOwn(again, "__proto__")).toBe(true);
    expect(JSON.stringify(again)).toBe(odd);
  });

  it("is bounded (the oldest text goes first) and keeps no long text", () => {
    const parsed = new ParsedEntries(3, 200);
    for (let i = 0; i < 5; i++) parsed.parse(text(i), "e");
    expect(parsed.size).toBe(3);
    parsed.parse(JSON.stringify({ key: "long", label: "x".repeat(300) }), "e");
    expect(parsed.size).toBe(3);
  });

  it("names the row when its text is not JSON", () => {
    expect(() => new ParsedEntries().parse("{not json", "session agent:main:x")).toThrow(
      "PostgreSQL store: session agent:main:x is not valid JSON",
    );
  });
});
