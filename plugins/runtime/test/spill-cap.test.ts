import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SpillFile } from "../src/process/spill.js";

describe("SpillFile at its cap", () => {
  const dir = () => mkdtempSync(path.join(tmpdir(), "spill-cap-"));

  it("a chunk that exactly fills the file but ends mid-line keeps whole lines only", () => {
    const spill = new SpillFile(dir(), "s1", 10);
    spill.write("abcd\nefghi"); // 10 characters, the second line unfinished
    spill.write("j\n");
    spill.close();
    expect(readFileSync(spill.path, "utf8")).toBe("abcd\n");
    expect(spill).toMatchObject({ chars: 5, newlines: 1, capped: true });
  });

  it("a chunk that exactly fills the file on a newline is kept whole", () => {
    const spill = new SpillFile(dir(), "s2", 10);
    spill.write("abcd\nefgh\n");
    spill.write("more\n");
    spill.close();
    expect(readFileSync(spill.path, "utf8")).toBe("abcd\nefgh\n");
    expect(spill).toMatchObject({ chars: 10, newlines: 2, capped: true });
  });

  it("a chunk past the cap is cut after its last newline that fits", () => {
    const spill = new SpillFile(dir(), "s3", 10);
    spill.write("abc\n");
    spill.write("defg\nhijk\nlmn\n");
    spill.close();
    expect(readFileSync(spill.path, "utf8")).toBe("abc\ndefg\n");
    expect(spill.capped).toBe(true);
  });
});
