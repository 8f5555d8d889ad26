import { describe, expect, it } from "vitest";
import { randomHex } from "./random-hex.js";

describe("randomHex", () => {
  it("gives hex of the asked length, never the same bytes twice across pool refills", () => {
    const seen = new Set<string>();
    for (let k = 0; k < 3000; k++) {
      const hex = randomHex(6);
      expect(hex).toMatch(/^[0-9a-f]{12}$/);
      seen.add(hex);
    }
    // 18,000 bytes: the 4 KB pool was refilled four times
    expect(seen.size).toBe(3000);
    expect(randomHex(3)).toMatch(/^[0-9a-f]{6}$/);
  });
});
