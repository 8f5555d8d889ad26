import { isKnownCoreToolId, type ToolPolicy } from "../catalog.js";
import { compileGlobPatterns, matchesAnyPattern } from "./glob.js";
import {
  buildPluginToolGroups,
  expandPluginGroups,
  expandToolGroups,
  type PluginToolGroups,
  type PolicyToolMeta,
} from "./groups.js";
import { compileNormalizedToolPolicy, mergeAlsoAllow } from "./match.js";
import { normalizeToolList, normalizeToolName } from "./normalize.js";

export interface ToolPolicyPipelineStep {
  /** Allow / deny (/ alsoAllow) for this step; undefined makes the step a no-op. */
  policy?: ToolPolicy;
  /** Names the step in warnings: `tools.allow`, `tools.profile (coding)`… */
  label: string;
  /** The step is a profile's own allowlist: gated-off core ids in it are not warned about. */
  isProfile?: boolean;
  /**
   * Tool names the registry holds: an entry naming one is known even when its tool was left out
   * before this step (owner-only, unavailable here), so it is not warned about.
   */
  known?: ReadonlySet<string>;
}

export interface ApplyToolPolicyPipelineParams<T extends { name: string }> {
  tools: T[];
  /** Plugin metadata of a tool; undefined (or `source: "core"`) for core tools. */
  toolMeta: (tool: T) => PolicyToolMeta | undefined;
  warn: (message: string) => void;
  steps: ToolPolicyPipelineStep[];
}

/** Entries of an allowlist that match no present tool, plugin id or group. */
function findUnknownEntries(
  allow: string[],
  present: Set<string>,
  plugins: PluginToolGroups,
  isProfile: boolean,
  known: ReadonlySet<string> | undefined,
): string[] {
  const unknown: string[] = [];
  for (const entry of normalizeToolList(allow)) {
    if (entry === "*" || plugins.byPlugin.has(entry)) continue;
    if (entry === "group:plugins" && plugins.all.length > 0) continue;
    const expanded = expandToolGroups([entry]);
    if (entry.includes("*")) {
      const patterns = compileGlobPatterns([entry]);
      if ([...present].some((name) => matchesAnyPattern(name, patterns))) continue;
    } else if (expanded.some((name) => present.has(name))) continue;
    if (isProfile && expanded.every((name) => isKnownCoreToolId(name))) continue;
    if (known && expanded.every((name) => known.has(name))) continue;
    unknown.push(entry);
  }
  return unknown;
}

function unknownSuffix(entries: string[]): string {
  const gated = entries.filter((e) => expandToolGroups([e]).every((n) => isKnownCoreToolId(n)));
  const other = entries.length - gated.length;
  if (gated.length > 0 && other > 0) {
    return "Some entries are shipped core tools but unavailable in the current runtime/provider/model/config; other entries won't match any tool unless the plugin is enabled.";
  }
  if (gated.length > 0) {
    return "These entries are shipped core tools but unavailable in the current runtime/provider/model/config.";
  }
  return "These entries won't match any tool unless the plugin is enabled.";
}

/** The warning for a step whose allowlist is present but empty: it allows no tools (fail closed). */
export function emptyAllowlistWarning(label: string): string {
  return `tools: ${label} allowlist is empty, so this step allows no tools. Remove the allowlist to allow every tool, or name the tools to allow.`;
}

// The same warning is logged once per process (LRU of 256), like OpenClaw.
const warned = new Map<string, true>();
function warnOnce(warn: (message: string) => void, message: string): void {
  if (warned.has(message)) return;
  warned.set(message, true);
  if (warned.size > 256) warned.delete(warned.keys().next().value!);
  warn(message);
}

/** Forgets which warnings were already emitted (for tests and long-lived hosts). */
export function resetPolicyWarnings(): void {
  warned.clear();
}

/**
 * Applies each step in order (a tool must pass every step). Each step warns once about
 * unknown allowlist entries, expands plugin ids and `group:plugins`, then filters.
 * An allowlist naming only plugin tools is kept, so core tools disappear (OpenClaw ≥ 2026-04).
 */
export function applyToolPolicyPipeline<T extends { name: string }>(
  params: ApplyToolPolicyPipelineParams<T>,
): T[] {
  const plugins = buildPluginToolGroups({ tools: params.tools, toolMeta: params.toolMeta });
  // Normalise every name once; each step filters the (tool, name) pairs.
  let entries = params.tools.map((tool) => ({ tool, name: normalizeToolName(tool.name) }));
  const present = new Set(entries.map((entry) => entry.name));
  for (const step of params.steps) {
    const policy = mergeAlsoAllow(step.policy);
    if (!policy) continue;
    if (policy.allow && normalizeToolList(policy.allow).length === 0 && !step.isProfile) {
      warnOnce(params.warn, emptyAllowlistWarning(step.label));
    }
    if (policy.allow?.length) {
      const unknown = findUnknownEntries(policy.allow, present, plugins, step.isProfile ?? false, step.known);
      if (unknown.length > 0) {
        warnOnce(
          params.warn,
          `tools: ${step.label} allowlist contains unknown entries (${unknown.join(", ")}). ${unknownSuffix(unknown)}`,
        );
      }
    }
    // An allowlist containing "*" allows everything: no need to expand the rest of it.
    const allowsAll = policy.allow?.some((entry) => entry.trim() === "*");
    const matcher = compileNormalizedToolPolicy({
      ...(policy.allow ? { allow: allowsAll ? ["*"] : expandPluginGroups(policy.allow, plugins)! } : {}),
      ...(policy.deny ? { deny: expandPluginGroups(policy.deny, plugins)! } : {}),
    });
    entries = entries.filter((entry) => matcher(entry.name));
  }
  return entries.map((entry) => entry.tool);
}
