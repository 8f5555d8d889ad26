import { optionalStringEnum, Type } from "@clawtools/core";
import type { ExecConfig } from "../config.js";
import type { BackgroundExitNotice } from "../process/exit-notice.js";
import type { ProcessRegistry } from "../process/registry.js";
import type { ExecSandbox } from "../sandbox/sandbox.js";
import type { ExecPolicy } from "../security/exec-policy.js";
import type { ExecApprovalHandler } from "../security/policy.js";
import type { ExecHost } from "./exec-host.js";

// What the exec tool takes: its parameter schema and the options an app gives it.

export const execSchema = Type.Object(
  {
    command: Type.String({ description: "Shell command to execute" }),
    title: Type.Optional(
      Type.String({
        maxLength: 120,
        description: "Short purpose of the call (shown to the user; never run)",
      }),
    ),
    workdir: Type.Optional(Type.String({ description: "Working directory (defaults to the workspace)" })),
    env: Type.Optional(
      Type.Record(Type.String(), Type.String(), { description: "Extra environment variables" }),
    ),
    yieldMs: Type.Optional(
      Type.Number({ minimum: 0, description: "Milliseconds to wait before backgrounding (default 10000)" }),
    ),
    background: Type.Optional(Type.Boolean({ description: "Run in background immediately" })),
    timeout: Type.Optional(
      Type.Number({ minimum: 0, description: "Timeout in seconds (kills the process on expiry)" }),
    ),
    timeoutSeconds: Type.Optional(
      Type.Number({ minimum: 0, description: "Alias of timeout (OpenClaw 2026.9 name)" }),
    ),
    pty: Type.Optional(
      Type.Boolean({ description: "Run in a pseudo-terminal (for TTY-only programs and interactive CLIs)" }),
    ),
    elevated: Type.Optional(
      Type.Boolean({
        description: "Run with elevated permissions on this machine, if elevated exec is enabled",
      }),
    ),
    host: optionalStringEnum(["auto", "sandbox", "gateway", "node"] as const, {
      description: "Exec host (default auto: the sandbox if configured, else this machine)",
    }),
    security: optionalStringEnum(["deny", "allowlist", "full"] as const, {
      description: "Exec security mode; may only tighten the configured mode",
    }),
    ask: optionalStringEnum(["off", "on-miss", "always"] as const, {
      description: "Exec ask mode; may only tighten the configured mode",
    }),
    node: Type.Optional(Type.String({ description: "Node id/name for host=node" })),
  },
  { additionalProperties: false },
);

/** Options only code can give (functions, hosts, a shared registry). */
export interface ExecCodeOptions {
  registry: ProcessRegistry;
  /** Asked when approval is needed; absent ⇒ such commands are denied with guidance. */
  approval?: ExecApprovalHandler;
  /** Hosts other than this machine: `sandbox` (a container, a VM…) and `node` (a remote node). */
  hosts?: Partial<Record<"sandbox" | "node", ExecHost>>;
  /**
   * Told when a run that went to the background ends (OpenClaw queues this as a system event
   * for the agent). Successful runs without output are not reported unless
   * `notifyOnExitEmptySuccess` is true.
   */
  onBackgroundExit?: (notice: BackgroundExitNotice) => void;
  /** The exec policy (rules from `runtime.execPolicy`); the plugin loads it from the config. */
  policy?: ExecPolicy;
  /** The sandbox local commands run in (`runtime.sandbox`); the plugin makes it from the config. */
  sandbox?: ExecSandbox;
}

/** `config.runtime.exec` (see the README for each key) plus what only code can give. */
export type ExecToolOptions = ExecConfig & ExecCodeOptions;
