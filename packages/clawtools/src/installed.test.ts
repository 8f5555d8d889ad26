import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { installedVersion } from "./installed.js";

const require = createRequire(import.meta.url);

describe("installedVersion", () => {
  it("reads the package.json that resolution from this package finds", () => {
    for (const name of ["@clawtools/fs", "@clawtools/runtime", "@clawtools/core"]) {
      const file = require.resolve(`${name}/package.json`);
      expect(installedVersion(name)).toBe(JSON.parse(readFileSync(file, "utf8")).version);
    }
  });

  it("says which package is missing", () => {
    expect(() => installedVersion("@clawtools/no-such-section")).toThrow(
      expect.objectContaining({
        code: "ERR_MODULE_NOT_FOUND",
        message: expect.stringContaining("Cannot find package '@clawtools/no-such-section'"),
      }),
    );
  });
});
