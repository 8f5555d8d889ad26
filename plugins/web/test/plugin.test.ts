import { checkPluginContract } from "@clawtools/testing";
import { describe, expect, it } from "vitest";
import { createWebPlugin } from "../src/index.js";

describe("web plugin", () => {
  it("passes the contract kit with and without a search provider", async () => {
    expect(await checkPluginContract(createWebPlugin({ search: { env: {} } }))).toEqual({
      ok: true,
      problems: [],
    });
    expect(await checkPluginContract(createWebPlugin({ search: { env: { BRAVE_API_KEY: "k" } } }))).toEqual({
      ok: true,
      problems: [],
    });
  });
});
