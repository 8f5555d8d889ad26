import type { ToolPolicy } from "../catalog.js";
import { compileGlobPatterns, matchesAnyPattern } from "./glob.js";
import { expandToolGroups } from "./groups.js";
import { normalizeToolName } from "./normalize.js";

/**
 * `alsoAllow` is additive: unioned with an explicit allow, or `["*", …alsoAllow]` when there
 * is none, so it never restricts. An explicit empty allow stays closed: only `alsoAllow` is
 * added to it (OpenClaw would widen it to `*`).
 */
export function mergeAlsoAllow(policy: ToolPolicy | undefined): ToolPolicy | undefined {
  if (!policy?.alsoAllow?.length) return policy;
  const { alsoAllow, ...rest } = policy;
  const allow = policy.allow ? [...policy.allow, ...alsoAllow] : ["*", ...alsoAllow];
  return { ...rest, allow };
}

export type ToolPolicyMatcher = (name: string) => boolean;

/**
 * Like compileToolPolicy, for names that are already normalised (the pipeline normalises
 * each tool name once rather than once per step).
 */
export function compileNormalizedToolPolicy(policy: ToolPolicy | undefined): ToolPolicyMatcher {
  const effective = mergeAlsoAllow(policy);
  if (!effective) return () => true;
  const deny = compileGlobPatterns(expandToolGroups(effective.deny));
  const allow = compileGlobPatterns(expandToolGroups(effective.allow));
  const denied = (name: string) => matchesAnyPattern(name, deny);
  // Fail closed: an allowlist that is present but empty (or only blank entries) allows nothing;
  // only an absent allowlist means "no allow restriction".
  const restricts = effective.allow !== undefined;
  const allowed = (name: string) => !restricts || matchesAnyPattern(name, allow);
  return (name) => {
    // apply_patch follows write: denying write denies it, allowing write allows it.
    if (name === "apply_patch")
      return !denied(name) && !denied("write") && (allowed(name) || allowed("write"));
    return !denied(name) && allowed(name);
  };
}

/** Deny first (deny wins), then an absent allow allows all, else the name must match allow (an empty allow matches nothing). */
export function compileToolPolicy(policy: ToolPolicy | undefined): ToolPolicyMatcher {
  const matcher = compileNormalizedToolPolicy(policy);
  return (raw) => matcher(normalizeToolName(raw));
}

export function isToolAllowedByPolicy(name: string, policy: ToolPolicy | undefined): boolean {
  return compileToolPolicy(policy)(name);
}

/** A tool must pass every policy (AND across layers). */
export function isToolAllowedByPolicies(
  name: string,
  policies: ReadonlyArray<ToolPolicy | undefined>,
): boolean {
  return policies.every((policy) => isToolAllowedByPolicy(name, policy));
}

export function filterToolsByPolicy<T extends { name: string }>(
  tools: readonly T[],
  policy: ToolPolicy | undefined,
): T[] {
  if (!policy) return [...tools];
  const matcher = compileToolPolicy(policy);
  return tools.filter((tool) => matcher(tool.name));
}
