import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { createToolset, TOOL_PROFILE_IDS, type Toolset } from "@clawtools/core";
import { type Clawtools, createClawtools } from "clawtools";
import type { CommonOptions } from "./options.js";
import { UsageError } from "./usage.js";

export async function loadClawtools(): Promise<Clawtools> {
  return createClawtools();
}

/** The toolset a command works with: installed sections, the workspace, and the policy flags. */
export async function buildToolset(
  options: CommonOptions,
  defaults: { profile?: string } = {},
): Promise<Toolset & { clawtools: Clawtools }> {
  const workspace = path.resolve(options.workspace);
  if (!existsSync(workspace) || !statSync(workspace).isDirectory())
    throw new UsageError(`workspace is not a directory: ${workspace}`);
  const profile = options.profile ?? defaults.profile;
  if (profile && !(TOOL_PROFILE_IDS as readonly string[]).includes(profile)) {
    throw new UsageError(`unknown profile "${profile}" (expected ${TOOL_PROFILE_IDS.join(", ")})`);
  }
  const clawtools = await loadClawtools();
  const toolset = createToolset({
    registry: clawtools.tools,
    context: { workspaceDir: workspace, agentId: "cli", sessionKey: "cli" },
    ...(options.provider ? { provider: options.provider } : {}),
    policy: {
      ...(profile ? { profile } : {}),
      ...(options.allow || options.deny
        ? {
            global: {
              ...(options.allow ? { allow: options.allow } : {}),
              ...(options.deny ? { deny: options.deny } : {}),
            },
          }
        : {}),
    },
    senderIsOwner: options.owner,
    warn: (message) => process.stderr.write(`${message}\n`),
  });
  return { ...toolset, clawtools };
}
