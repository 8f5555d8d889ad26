import { describe, expect, it } from "vitest";
import { TailBuffer } from "../src/process/output.js";

describe("TailBuffer", () => {
  it("keeps everything under the cap", () => {
    const b = new TailBuffer(10);
    b.append("abc");
    b.append("");
    b.append("def");
    expect(b.value).toBe("abcdef");
    expect(b.truncated).toBe(false);
  });

  it("keeps exactly the last max characters, whatever the chunk sizes", () => {
    const b = new TailBuffer(10);
    let all = "";
    for (let i = 0; i < 200; i++) {
      const chunk = String(i).repeat((i % 7) + 1);
      all += chunk;
      b.append(chunk);
      expect(b.tail(4)).toBe(all.slice(-4));
    }
    expect(b.value).toBe(all.slice(-10));
    expect(b.truncated).toBe(true);
  });

  it("a chunk larger than the cap replaces everything with its own tail", () => {
    const b = new TailBuffer(5);
    b.append("xy");
    b.append("0123456789");
    expect(b.value).toBe("56789");
    expect(b.truncated).toBe(true);
    b.append("ab");
    expect(b.value).toBe("789ab");
  });

  it("a chunk of exactly the cap into an empty buffer is not a truncation", () => {
    const b = new TailBuffer(5);
    b.append("01234");
    expect(b.value).toBe("01234");
    expect(b.truncated).toBe(false);
  });

  it("take empties the buffer", () => {
    const b = new TailBuffer(5);
    b.append("hello");
    expect(b.take()).toBe("hello");
    expect(b.value).toBe("");
    b.append("x");
    expect(b.value).toBe("x");
  });
});
