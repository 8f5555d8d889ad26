import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { compileGlob } from "./glob.js";

describe("compileGlob", () => {
  it("agrees with picomatch (dot: true) on plain globs it matches without a regex", () => {
    const globs = [
      "*.ts",
      "*",
      "a*",
      "*a*b*",
      "?.md",
      "src/*.ts",
      "**/*.ts",
      "src/**",
      "src/**/deep/*.ts",
      "**",
      "a**b",
      "*.test.*",
      ".hidden*",
      "naïve ?ile.ts",
    ];
    const paths = [
      "a.ts",
      ".hidden.ts",
      "src/a.ts",
      "src/deep/b.ts",
      "src/x/deep/c.ts",
      "src",
      "ab",
      "axb",
      "ax/yb",
      "x.md",
      "xy.md",
      "f.test.ts",
      "naïve file.ts",
      "sub dir/naïve file.ts",
      "a",
    ];
    for (const glob of globs) {
      const reference = picomatch(glob, { dot: true, nonegate: true });
      const ours = compileGlob(glob);
      for (const path of paths) expect(ours(path), `${glob} ~ ${path}`).toBe(reference(path));
    }
  });

  it("hands brackets, braces and extglobs to picomatch", () => {
    expect(compileGlob("*.{ts,md}")("notes.md")).toBe(true);
    expect(compileGlob("pkg[0-4]/**")("pkg3/src/a.js")).toBe(true);
    expect(compileGlob("!(*.ts)")("a.js")).toBe(true);
    expect(compileGlob("*.TS", { ignoreCase: true })("a.ts")).toBe(true);
  });

  it("stays linear on many wildcards against a long crafted name", () => {
    const name = "a".repeat(255);
    expect(compileGlob("*a*a*a*a*a*a*a*a*b")(name)).toBe(false);
    expect(compileGlob("*a*a*a*a*a*a*a*a*")(name)).toBe(true);
    expect(() => compileGlob("*a*a*a*a*{b,c}")).toThrow(
      `Glob segment "*a*a*a*a*{b,c}" has 5 '*' wildcards; at most 3 are allowed next to brackets, braces or extglobs.`,
    );
  });
});
