import type { ToolPolicy } from "../catalog.js";
import { compileGlobPatterns, matchesAnyPattern } from "./glob.js";
import { expandToolGroups } from "./groups.js";
import { normalizeToolList } from "./normalize.js";

/**
 * What a sandboxed agent may use by default (OpenClaw `src/agents/sandbox/constants.ts`,
 * `DEFAULT_TOOL_ALLOW` / `DEFAULT_TOOL_DENY`; channel ids are added to deny by the caller).
 */
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

const unique = (list: readonly string[]) => [...new Set(list)];

/**
 * The allowlist: an explicit `allow` (with `alsoAllow` unioned in; an explicit empty one stays
 * empty and allows nothing), else the default allow plus `alsoAllow`.
 */
function sandboxAllow(override: ToolPolicy | undefined): string[] {
  const also = override?.alsoAllow ?? [];
  if (override?.allow) return override.allow.length === 0 ? [] : unique([...override.allow, ...also]);
  return unique([...DEFAULT_SANDBOX_TOOL_POLICY.allow, ...also]);
}

/** Default-denied names stay denied unless `allow` / `alsoAllow` re-allow them explicitly. */
function defaultDenyKeeping(denied: readonly string[], override: ToolPolicy | undefined): string[] {
  const explicit = [...(override?.allow ?? []), ...(override?.alsoAllow ?? [])];
  if (explicit.length === 0) return [...denied];
  const patterns = compileGlobPatterns(expandToolGroups(explicit));
  if (patterns.size === 0) return [...denied];
  return denied.filter((name) => !matchesAnyPattern(name, patterns));
}

/**
 * The sandbox step of the policy pipeline, as OpenClaw's `resolveSandboxToolPolicyForAgent`
 * (`src/agents/sandbox/tool-policy.ts`) builds it:
 * - an override's explicit `deny` replaces the default deny list; without one the default deny
 *   list (browser, canvas, nodes, cron, gateway and the channel ids) is kept, minus the names
 *   `allow` / `alsoAllow` re-allow explicitly, so an override with only `alsoAllow` keeps it;
 * - an explicit allowlist keeps `image` unless `image` is denied (the sandbox's image tool).
 * The channel ids the app knows are always denied when the override names no deny list.
 */
export function resolveSandboxToolPolicy(
  options: { channelIds?: string[]; override?: ToolPolicy } = {},
): ToolPolicy {
  const override = options.override;
  const channels = options.channelIds ?? [];
  const deny = override?.deny
    ? [...override.deny, ...channels]
    : defaultDenyKeeping([...DEFAULT_SANDBOX_TOOL_POLICY.deny, ...channels], override);
  let allow = sandboxAllow(override);
  const normalizedAllow = normalizeToolList(allow);
  const denyPatterns = compileGlobPatterns(expandToolGroups(deny));
  if (allow.length > 0 && !matchesAnyPattern("image", denyPatterns) && !normalizedAllow.includes("image")) {
    allow = [...allow, "image"];
  }
  return { allow, deny };
}
