import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgentsPlugin } from "@clawtools/agents";
import { createAutomationPlugin } from "@clawtools/automation";
import type { ClawtoolsPlugin } from "@clawtools/core";
import { createMediaPlugin } from "@clawtools/media";
import { createMessagingPlugin } from "@clawtools/messaging";
import { createNodesPlugin } from "@clawtools/nodes";
import { createSessionsPlugin } from "@clawtools/sessions";
import { createScriptedRunner } from "@clawtools/sessions/testing";
import { checkPluginContract } from "@clawtools/testing";
import { createUiPlugin } from "@clawtools/ui";
import { describe, expect, it } from "vitest";

// The sections built after the contract kit, held to it as fs, runtime, web and memory are: every
// registration well formed, factories building exactly the names they declare, every schema
// valid for every provider and invalid arguments refused with a validation message.
const sections: Array<[string, () => ClawtoolsPlugin]> = [
  ["sessions", () => createSessionsPlugin({ runner: ({ store }) => createScriptedRunner({ store }) })],
  ["agents", () => createAgentsPlugin()],
  ["automation", () => createAutomationPlugin()],
  ["messaging", () => createMessagingPlugin()],
  ["nodes", () => createNodesPlugin()],
  ["media", () => createMediaPlugin()],
  ["ui", () => createUiPlugin()],
];

describe("the contract kit over the wave-2 sections", () => {
  it.each(sections)("%s passes", async (_name, create) => {
    const dir = mkdtempSync(path.join(tmpdir(), "cli-contract-"));
    const plugin = create();
    const report = await checkPluginContract(plugin, {
      workspaceDir: dir,
      stateDir: path.join(dir, ".state"),
      agentId: "main",
      sessionKey: "main",
    });
    await plugin.dispose?.();
    expect(report).toEqual({ ok: true, problems: [] });
  });
});
