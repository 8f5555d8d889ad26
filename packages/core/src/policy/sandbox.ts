import type { ToolPolicy } from "../catalog.js";

/** What a sandboxed agent may use by default (reference §2 item 29). */
export const DEFAULT_SANDBOX_TOOL_POLICY: Readonly<Required<Pick<ToolPolicy, "allow" | "deny">>> =
  Object.freeze({
    allow: [
      "exec",
      "process",
      "read",
      "write",
      "edit",
      "apply_patch",
      "image",
      "sessions_list",
      "sessions_history",
      "sessions_send",
      "sessions_spawn",
      "sessions_yield",
      "subagents",
      "session_status",
    ],
    deny: ["browser", "canvas", "nodes", "cron", "gateway"],
  });

/** The sandbox default, with the channel ids the app knows added to deny. */
export function resolveSandboxToolPolicy(
  options: { channelIds?: string[]; override?: ToolPolicy } = {},
): ToolPolicy {
  const base = options.override ?? DEFAULT_SANDBOX_TOOL_POLICY;
  return {
    allow: [...(base.allow ?? [])],
    deny: [...(base.deny ?? []), ...(options.channelIds ?? [])],
  };
}
