import { checkPluginContract } from "@clawtools/testing";
import { describe, expect, it } from "vitest";
import { createRuntimePlugin } from "../src/index.js";

describe("runtime plugin", () => {
  it("passes the contract kit, including an aborted signal and real sample calls", async () => {
    const plugin = createRuntimePlugin();
    const report = await checkPluginContract(
      plugin,
      { workspaceDir: process.cwd() },
      {
        sampleArgs: { exec: { command: "echo contract" }, process: { action: "list" } },
      },
    );
    expect(report).toEqual({ ok: true, problems: [] });
    plugin.registry.killAll();
  });
});
