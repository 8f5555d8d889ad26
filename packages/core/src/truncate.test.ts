import { describe, expect, it } from "vitest";
import { formatSize, truncateHead, truncateLine, truncateTail } from "./truncate.js";

describe("truncation", () => {
  it("leaves small content untouched", () => {
    const r = truncateHead("a\nb");
    expect(r).toMatchObject({ content: "a\nb", truncated: false, truncatedBy: null, totalLines: 2 });
  });

  it("head keeps whole lines up to the line cap", () => {
    const text = Array.from({ length: 10 }, (_, i) => `line${i + 1}`).join("\n");
    const r = truncateHead(text, { maxLines: 3 });
    expect(r.content).toBe("line1\nline2\nline3");
    expect(r).toMatchObject({ truncated: true, truncatedBy: "lines", outputLines: 3, totalLines: 10 });
  });

  it("head stops on the byte cap counting newlines, never a partial line", () => {
    const r = truncateHead("aaaa\nbbbb\ncccc", { maxBytes: 10 });
    expect(r.content).toBe("aaaa\nbbbb");
    expect(r).toMatchObject({ truncatedBy: "bytes", outputBytes: 9 });
  });

  it("head returns nothing when the first line alone is too big", () => {
    const r = truncateHead(`${"x".repeat(100)}\nshort`, { maxBytes: 50 });
    expect(r).toMatchObject({ content: "", firstLineExceedsLimit: true, truncatedBy: "bytes" });
  });

  it("tail keeps the last lines, or the tail of one huge last line on a char boundary", () => {
    expect(truncateTail("1\n2\n3\n4", { maxLines: 2 }).content).toBe("3\n4");
    const r = truncateTail(`start\n${"é".repeat(40)}`, { maxBytes: 11 });
    expect(r.lastLinePartial).toBe(true);
    expect(r.content).toBe("é".repeat(5));
  });

  it("truncateLine appends the marker and formatSize matches pi", () => {
    expect(truncateLine("x".repeat(600)).text).toBe(`${"x".repeat(500)}... [truncated]`);
    expect(truncateLine("short")).toEqual({ text: "short", wasTruncated: false });
    expect([formatSize(512), formatSize(51200), formatSize(1572864)]).toEqual(["512B", "50.0KB", "1.5MB"]);
  });
});
