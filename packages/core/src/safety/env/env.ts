import { ToolInputError } from "../../errors.js";
import {
  BLOCKED_EVERYWHERE_KEYS,
  BLOCKED_OVERRIDE_ONLY_KEYS,
  BLOCKED_OVERRIDE_PREFIXES,
  BLOCKED_PREFIXES,
  CARGO_TARGET_EXECUTABLE_KEY,
  GIT_SAFE_PROTOCOLS,
  INHERITED_OVERRIDE_ONLY_ALLOWED,
} from "./host-env-policy.js";
import { isWithheldEnvKey } from "./withheld-env.js";

/** Keys a call may never set (OpenClaw's blocked-everywhere and override-only lists). */
export const BLOCKED_ENV_KEYS: ReadonlySet<string> = new Set([
  ...BLOCKED_EVERYWHERE_KEYS,
  ...BLOCKED_OVERRIDE_ONLY_KEYS,
  // clawtools refused these before OpenClaw listed them; kept
  "PROMPT_COMMAND",
]);
/** Prefixes a call may never set. */
export const BLOCKED_ENV_PREFIXES: readonly string[] = [...BLOCKED_PREFIXES, ...BLOCKED_OVERRIDE_PREFIXES];

const allowedInherited = new Set(INHERITED_OVERRIDE_ONLY_ALLOWED);
/** Keys dropped from the environment this process passes on (OpenClaw's derivation). */
const INHERITED_BLOCKED_KEYS: ReadonlySet<string> = new Set([
  ...BLOCKED_EVERYWHERE_KEYS,
  ...BLOCKED_OVERRIDE_ONLY_KEYS.filter((key) => !allowedInherited.has(key)),
]);
/**
 * Prefixes dropped from the inherited environment: OpenClaw's (loader, shell functions) plus
 * numbered git and npm configuration, which clawtools has always dropped (`GIT_CONFIG_KEY_0=
 * core.sshCommand` runs a program).
 */
const INHERITED_BLOCKED_PREFIXES: readonly string[] = [...BLOCKED_PREFIXES, "GIT_CONFIG_", "NPM_CONFIG_"];

export const PATH_FORBIDDEN =
  "Security Violation: Custom 'PATH' variable is forbidden during host execution.";

// verdicts per key name: every exec checks the whole inherited environment
const inheritedVerdicts = new Map<string, boolean>();

/** Whether a call may not set `key`. */
export function isBlockedEnvKey(key: string): boolean {
  const upper = key.toUpperCase();
  return (
    BLOCKED_ENV_KEYS.has(upper) ||
    BLOCKED_ENV_PREFIXES.some((prefix) => upper.startsWith(prefix)) ||
    CARGO_TARGET_EXECUTABLE_KEY.test(upper)
  );
}

/** Whether an inherited `key` is dropped before a command runs. */
export function isBlockedInheritedEnvKey(key: string): boolean {
  let blocked = inheritedVerdicts.get(key);
  if (blocked === undefined) {
    const upper = key.toUpperCase();
    blocked =
      INHERITED_BLOCKED_KEYS.has(upper) ||
      INHERITED_BLOCKED_PREFIXES.some((prefix) => upper.startsWith(prefix));
    if (inheritedVerdicts.size < 10_000) inheritedVerdicts.set(key, blocked);
  }
  return blocked;
}

/** A model-supplied name as quoted in an error: JSON-quoted, at most a short prefix. */
function quoteName(value: string, max = 80): string {
  if (value.length <= max) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, max))}… (${value.length} characters)`;
}

const GIT_PROTOCOL_KEYS = new Set(["GIT_ALLOW_PROTOCOL", "GIT_PROTOCOL_FROM_USER"]);
const VALID_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An inherited value as OpenClaw passes it on: git protocols narrowed, user protocols off. */
function inheritedValue(key: string, value: string): string {
  const upper = key.toUpperCase();
  if (upper === "GIT_ALLOW_PROTOCOL")
    return value
      .trim()
      .split(":")
      .filter((protocol) => GIT_SAFE_PROTOCOLS.includes(protocol))
      .join(":");
  if (upper === "GIT_PROTOCOL_FROM_USER") {
    const v = value.trim().toLowerCase();
    const permissive =
      v === "true" || v === "yes" || v === "on" || (/^[+-]?\d+$/.test(v) && !/^[+-]?0+$/.test(v));
    return permissive ? "0" : value;
  }
  return value;
}

/** The call's own variables, checked: PATH and every blocked key are refused, never ignored. */
export function checkCallEnv(requested: Record<string, string> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(requested ?? {})) {
    if (key.toUpperCase() === "PATH") throw new ToolInputError(PATH_FORBIDDEN);
    if (!VALID_KEY.test(key))
      throw new ToolInputError(`Invalid environment variable name: ${quoteName(key)}`);
    const upper = key.toUpperCase();
    // OpenClaw lets a call turn the pager off (PAGER= or PAGER=cat), nothing else
    if ((upper === "PAGER" || upper === "GIT_PAGER") && (value === "" || value === "cat")) {
      env[key] = "";
      continue;
    }
    if (isBlockedEnvKey(key)) {
      throw new ToolInputError(
        `Security Violation: Environment variable '${key}' is forbidden during host execution.`,
      );
    }
    env[key] = String(value);
  }
  return env;
}

/**
 * The environment a command runs with: the host's, minus dangerous keys, plus what the call
 * asked for (checked by `checkCallEnv`).
 */
export function sanitizeEnv(
  inherited: NodeJS.ProcessEnv,
  requested: Record<string, string> | undefined,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(inherited)) {
    if (value === undefined) continue;
    // git's protocol keys are narrowed rather than dropped: dropping would widen what git allows
    if (GIT_PROTOCOL_KEYS.has(key.toUpperCase())) env[key] = inheritedValue(key, value);
    // the server's own secrets (withholdEnv) stay with it
    else if (!isBlockedInheritedEnvKey(key) && !isWithheldEnvKey(key)) env[key] = value;
  }
  return Object.assign(env, checkCallEnv(requested));
}
