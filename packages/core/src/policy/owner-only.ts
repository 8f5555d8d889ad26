import { OWNER_ONLY_TOOL_ERROR, ToolAuthorizationError } from "../errors.js";
import type { AnyAgentTool } from "../tool.js";
import { normalizeToolName } from "./normalize.js";

/** Tools that are owner-only whatever their flag says. */
export const OWNER_ONLY_TOOL_NAMES: ReadonlySet<string> = new Set([
  "whatsapp_login",
  "cron",
  "gateway",
  "nodes",
]);

export function isOwnerOnlyTool(tool: Pick<AnyAgentTool, "name" | "ownerOnly">): boolean {
  return tool.ownerOnly === true || OWNER_ONLY_TOOL_NAMES.has(normalizeToolName(tool.name));
}

/** Wraps an owner-only tool so that it refuses non-owner callers with the spec's error. */
export function guardOwnerOnlyTool<T extends AnyAgentTool>(tool: T, senderIsOwner: boolean | undefined): T {
  if (!isOwnerOnlyTool(tool) || senderIsOwner === true) return tool;
  return {
    ...tool,
    execute: async () => {
      throw new ToolAuthorizationError(OWNER_ONLY_TOOL_ERROR);
    },
  };
}

/** Removes owner-only tools for non-owner senders (undefined counts as not the owner). */
export function applyOwnerOnlyToolPolicy<T extends AnyAgentTool>(
  tools: T[],
  senderIsOwner: boolean | undefined,
): T[] {
  if (senderIsOwner === true) return tools;
  return tools
    .filter((tool) => !isOwnerOnlyTool(tool))
    .map((tool) => guardOwnerOnlyTool(tool, senderIsOwner));
}
