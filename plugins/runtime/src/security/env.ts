import { ToolInputError } from "@clawtools/core";

/** Keys a call may never set and that are dropped from the inherited environment. */
export const BLOCKED_ENV_KEYS: ReadonlySet<string> = new Set([
  "NODE_OPTIONS",
  "NODE_PATH",
  "PYTHONPATH",
  "PYTHONSTARTUP",
  "PYTHONHOME",
  "BASH_ENV",
  "ENV",
  "PERL5LIB",
  "PERL5OPT",
  "RUBYLIB",
  "RUBYOPT",
  "GLIBC_TUNABLES",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "JDK_JAVA_OPTIONS",
  "PROMPT_COMMAND",
  "IFS",
  "SHELLOPTS",
  "PS4",
]);
export const BLOCKED_ENV_PREFIXES: readonly string[] = [
  "LD_",
  "DYLD_",
  "BASH_FUNC_",
  "GIT_CONFIG_",
  "NPM_CONFIG_",
];

export const PATH_FORBIDDEN =
  "Security Violation: Custom 'PATH' variable is forbidden during host execution.";

// verdicts per key name: every exec checks the whole inherited environment
const verdicts = new Map<string, boolean>();

export function isBlockedEnvKey(key: string): boolean {
  let blocked = verdicts.get(key);
  if (blocked === undefined) {
    const upper = key.toUpperCase();
    blocked = BLOCKED_ENV_KEYS.has(upper) || BLOCKED_ENV_PREFIXES.some((prefix) => upper.startsWith(prefix));
    if (verdicts.size < 10_000) verdicts.set(key, blocked);
  }
  return blocked;
}

/**
 * The environment a command runs with: the host's, minus dangerous keys, plus what the call
 * asked for. A call may not set PATH or any blocked key: that is refused, not ignored.
 */
export function sanitizeEnv(
  inherited: NodeJS.ProcessEnv,
  requested: Record<string, string> | undefined,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(inherited)) {
    if (value !== undefined && !isBlockedEnvKey(key)) env[key] = value;
  }
  for (const [key, value] of Object.entries(requested ?? {})) {
    if (key.toUpperCase() === "PATH") throw new ToolInputError(PATH_FORBIDDEN);
    if (isBlockedEnvKey(key)) {
      throw new ToolInputError(
        `Security Violation: Environment variable '${key}' is forbidden during host execution.`,
      );
    }
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
      throw new ToolInputError(`Invalid environment variable name: ${JSON.stringify(key)}`);
    env[key] = String(value);
  }
  return env;
}
