import { stringEnum, Type } from "@clawtools/core";

// The gateway tool's actions, parameter schema, protected paths and refusal texts.

export const GATEWAY_ACTIONS = [
  "restart",
  "config.get",
  "config.schema.lookup",
  "config.apply",
  "config.patch",
  "update.run",
] as const;
export type Action = (typeof GATEWAY_ACTIONS)[number];

export const gatewaySchema = Type.Object(
  {
    action: stringEnum(GATEWAY_ACTIONS, { description: "What to do." }),
    delayMs: Type.Optional(Type.Number({ description: "restart: wait this long first (0..60,000)." })),
    reason: Type.Optional(Type.String()),
    gatewayUrl: Type.Optional(Type.String()),
    gatewayToken: Type.Optional(Type.String()),
    timeoutMs: Type.Optional(Type.Number()),
    path: Type.Optional(
      Type.String({ description: "config.schema.lookup: dotted config path (web.fetch)." }),
    ),
    raw: Type.Optional(
      Type.String({
        description: "config.apply: the whole configuration; config.patch: a JSON merge patch (JSON text).",
      }),
    ),
    baseHash: Type.Optional(
      Type.String({ description: "config.apply / config.patch: the hash config.get returned." }),
    ),
    sessionKey: Type.Optional(Type.String()),
    note: Type.Optional(Type.String()),
    restartDelayMs: Type.Optional(Type.Number()),
  },
  { additionalProperties: false },
);

/** Paths no agent may change through the tool: exec security and the gateway tool's own switches. */
export const PROTECTED_CONFIG_PATHS = [
  "runtime.exec.security",
  "runtime.exec.ask",
  "runtime.exec.safeBins",
  "runtime.exec.safeBinProfiles",
  "runtime.exec.safeBinTrustedDirs",
  "runtime.exec.strictInlineEval",
  "automation.gateway",
] as const;

export const WRITES_DISABLED = (action: string) =>
  `gateway ${action} is disabled: the gateway tool is read-only (set config.automation.gateway.allowConfigWrites=true to allow it)`;
export const RESTART_DISABLED =
  "Gateway restart is disabled (config.automation.gateway.allowRestart is not true).";
export const NO_RESTART_HOOK = "Gateway restart is not available: the app supplied no restart hook.";
export const NO_UPDATER =
  "update.run is not available: the app supplied no updater (clawtools never updates itself; update the package with your package manager).";
