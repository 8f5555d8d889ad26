import {
  ConfigError,
  optionalStringEnum,
  parseSectionConfig,
  readSectionConfig,
  stringEnum,
  type Static,
  type ToolContext,
  Type,
} from "@clawtools/core";
import { SAFE_BIN_PROFILES } from "./security/safe-bin-profiles.js";

const oneOf = <const T extends readonly string[]>(values: T, description: string) =>
  optionalStringEnum(values, { description });

/**
 * `config.runtime`: what `clawtools serve --config` and `createToolset({ context: { config } })`
 * give the runtime section. Keys follow OpenClaw's `tools.exec.*` where it has one.
 */
export const execConfigSchema = Type.Object(
  {
    security: oneOf(
      ["deny", "allowlist", "full"],
      "tools.exec.security: deny | allowlist | full (default full)",
    ),
    ask: oneOf(["off", "on-miss", "always"], "tools.exec.ask: off | on-miss | always (default off)"),
    host: oneOf(["auto", "sandbox", "gateway", "node"], "tools.exec.host (default auto)"),
    allowlist: Type.Optional(
      Type.Array(
        Type.Object(
          {
            pattern: Type.String({ minLength: 1, description: "Executable name or path; * and ? wildcards" }),
            argPattern: Type.Optional(
              Type.String({ description: "Regular expression over the joined arguments" }),
            ),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    safeBins: Type.Optional(
      Type.Array(Type.String(), { description: "tools.exec.safeBins (default cut uniq head tail tr wc)" }),
    ),
    safeBinTrustedDirs: Type.Optional(
      Type.Array(Type.String(), { description: "tools.exec.safeBinTrustedDirs, added to /bin and /usr/bin" }),
    ),
    allowRedirections: Type.Optional(
      Type.Boolean({
        description: "Allowlist mode: allow file redirections inside the workspace (default false)",
      }),
    ),
    timeoutSec: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, description: "tools.exec.timeoutSec (default 1800)" }),
    ),
    backgroundMs: Type.Optional(
      Type.Number({ minimum: 0, description: "tools.exec.backgroundMs (default 10000)" }),
    ),
    approvalTimeoutMs: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: "Default 30 minutes" })),
    allowBackground: Type.Optional(Type.Boolean()),
    elevated: oneOf(["off", "ask", "full"], "Elevated calls on this machine (default off)"),
    shell: Type.Optional(Type.String({ minLength: 1, description: "Default /bin/sh" })),
    stdin: oneOf(["closed", "open"], "stdin of non-PTY runs (default closed)"),
    notifyOnExit: Type.Optional(Type.Boolean({ description: "tools.exec.notifyOnExit (default true)" })),
    notifyOnExitEmptySuccess: Type.Optional(
      Type.Boolean({ description: "tools.exec.notifyOnExitEmptySuccess" }),
    ),
  },
  { additionalProperties: false },
);

export const limitsConfigSchema = Type.Object(
  {
    maxOutputChars: Type.Optional(Type.Integer({ minimum: 1 })),
    pendingMaxOutputChars: Type.Optional(Type.Integer({ minimum: 1 })),
    retentionMs: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);

export const execPolicyConfigSchema = Type.Object(
  {
    rules: Type.Optional(
      Type.Array(
        Type.Object(
          {
            decision: stringEnum(["deny", "ask", "allow"] as const, { description: "deny | ask | allow" }),
            command: Type.Array(
              Type.Union([
                Type.String({ minLength: 1 }),
                Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
              ]),
              {
                minItems: 1,
                description:
                  "Argument prefix: the program (a name or a path), then its arguments; a list gives alternatives",
              },
            ),
            justification: Type.Optional(Type.String()),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    claude: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        description: "Claude Code settings.json files whose permissions.allow/ask/deny Bash(...) rules apply",
      }),
    ),
    codex: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        description:
          "Codex .rules files (prefix_rule, host_executable); their match/not_match examples are checked at start",
      }),
    ),
  },
  { additionalProperties: false },
);

export const runtimeConfigSchema = Type.Object(
  {
    exec: Type.Optional(execConfigSchema),
    limits: Type.Optional(limitsConfigSchema),
    execPolicy: Type.Optional(execPolicyConfigSchema),
    sandbox: oneOf(
      ["auto", "bwrap", "none"],
      "Run local commands in bubblewrap: auto (when it works, else unsandboxed and said so), bwrap (required), none (default)",
    ),
    sandboxNetwork: oneOf(
      ["proxy", "off"],
      "Network inside the sandbox: proxy (default: through the egress proxy under web_fetch's URL policy) or off (none at all, faster start)",
    ),
  },
  { additionalProperties: false },
);

export type ExecConfig = Static<typeof execConfigSchema>;
export type RuntimeConfig = Static<typeof runtimeConfigSchema>;

const defined = <T extends object>(value: T | undefined): Partial<T> =>
  Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;

/** Checks what a schema cannot: every safe bin has a profile. */
function checkSafeBins(config: RuntimeConfig): RuntimeConfig {
  const unknown = (config.exec?.safeBins ?? []).filter((name) => !SAFE_BIN_PROFILES[name]);
  if (unknown.length) {
    throw new ConfigError("runtime", [
      `  - exec.safeBins: no safe-bin profile for ${unknown.join(", ")} (profiled: ${Object.keys(SAFE_BIN_PROFILES).join(", ")}); use allowlist entries for other programs`,
    ]);
  }
  return config;
}

/** Validates the options given in code (at plugin creation). */
export function parseRuntimeConfig(value: unknown): RuntimeConfig {
  return checkSafeBins(parseSectionConfig("runtime", runtimeConfigSchema, value));
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * `ctx.config.runtime` overlaid by the options given in code, key by key inside `exec` and
 * `limits` (core's `readSectionConfig` overlays the top level; the nested keys are merged
 * here first), validated together.
 */
export function readRuntimeConfig(
  ctx: Pick<ToolContext, "config">,
  inCode: RuntimeConfig = {},
): RuntimeConfig {
  const fromContext = isPlainObject(ctx.config?.runtime) ? ctx.config.runtime : {};
  const options: Record<string, unknown> = {};
  for (const key of ["exec", "limits", "execPolicy"] as const) {
    const code = defined(inCode[key] as object | undefined);
    const given = fromContext[key];
    // a malformed section in the file is left for validation to name
    if (isPlainObject(given)) options[key] = { ...given, ...code };
    else if (given === undefined && Object.keys(code).length) options[key] = code;
  }
  if (inCode.sandbox !== undefined) options.sandbox = inCode.sandbox;
  if (inCode.sandboxNetwork !== undefined) options.sandboxNetwork = inCode.sandboxNetwork;
  return checkSafeBins(readSectionConfig(ctx, "runtime", runtimeConfigSchema, options as RuntimeConfig));
}
