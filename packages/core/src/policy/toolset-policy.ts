import {
  resolveCoreToolProfilePolicy,
  TOOL_PROFILE_IDS,
  type ToolMeta,
  type ToolProfileId,
  type ToolPolicy,
} from "../catalog.js";
import { normalizeToolList } from "./normalize.js";

// The policy layers a toolset applies, and what a tool profile allows.

/** Every policy layer, applied in OpenClaw's order (each must allow a tool). */
export interface ToolsetPolicy {
  /** minimal | coding | messaging | full (default: no profile = everything). */
  profile?: string;
  /** The profile for this model provider (tools.byProvider.profile). */
  providerProfile?: string;
  global?: ToolPolicy;
  /** What the global layer is called in diagnostics (default `tools.allow` / `tools.deny`; the CLI's `--allow` / `--deny`). */
  globalLabels?: { allow: string; deny: string };
  globalProvider?: ToolPolicy;
  agent?: ToolPolicy;
  agentProvider?: ToolPolicy;
  group?: ToolPolicy;
  sandbox?: ToolPolicy;
  subagent?: ToolPolicy;
  /** Used in warning labels (`agents.<id>.tools.allow`). */
  agentId?: string;
}

/**
 * A profile is a fixed allowlist: the catalog's ids for it, whether or not those tools are
 * installed, so a profile whose tools are missing allows nothing rather than everything. Plugin
 * tools (not core ids) that list the profile in their own metadata join it, except `minimal`,
 * which is the catalog's `session_status` and nothing else. `full` (or none) is no policy; an
 * unknown profile allows nothing and says so.
 */
export function profilePolicy(
  profile: string | undefined,
  label: string,
  metas: readonly ToolMeta[],
  warn: (message: string) => void,
): ToolPolicy | undefined {
  if (profile === undefined || profile === "full") return undefined;
  const policy = resolveCoreToolProfilePolicy(profile);
  if (policy?.allow) {
    if (profile === "minimal") return policy;
    const declared = metas.filter(
      (m) => m.source === "plugin" && m.profiles.includes(profile as ToolProfileId),
    );
    return { allow: [...policy.allow, ...declared.map((m) => m.id)] };
  }
  warn(
    `tools: ${label} is not a known profile (${TOOL_PROFILE_IDS.join(", ")}), so this step allows no tools.`,
  );
  return { allow: [] };
}

export function allowEntries(policy: ToolsetPolicy): string[] {
  const layers = [
    policy.global,
    policy.globalProvider,
    policy.agent,
    policy.agentProvider,
    policy.group,
    policy.sandbox,
    policy.subagent,
  ];
  return normalizeToolList(layers.flatMap((p) => [...(p?.allow ?? []), ...(p?.alsoAllow ?? [])]));
}
