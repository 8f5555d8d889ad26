import { statSync } from "node:fs";
import path from "node:path";
import {
  type AgentTool,
  type AgentToolResult,
  type AgentToolUpdateCallback,
  optionalStringEnum,
  type ToolContext,
  ToolInputError,
  Type,
} from "@clawtools/core";
import { type BackgroundExitNotice, backgroundExitNotice } from "../process/exit-notice.js";
import { clampYield, resolveYieldMs } from "../process/limits.js";
import type { ProcessRegistry } from "../process/registry.js";
import type { ProcessSession } from "../process/session.js";
import { type AllowlistEntry, allowlistMisses } from "../security/allowlist.js";
import { analyzeCommandLine } from "../security/command-line.js";
import { commandsOf } from "../security/command-prefixes.js";
import { refuseApprovalCommands } from "../security/control-commands.js";
import { sanitizeEnv } from "../security/env.js";
import {
  type ExecApprovalHandler,
  type ExecAsk,
  type ExecSecurity,
  effectiveAsk,
  effectiveSecurity,
  NO_APPROVAL_ROUTE,
} from "../security/policy.js";
import { preflightScripts } from "../security/script-preflight.js";
import type { ExecHost } from "./exec-host.js";
import {
  applyElevated,
  type ElevatedLevel,
  type ExecHostKind,
  type ExecTarget,
  resolveExecHost,
} from "./exec-target.js";

export const execSchema = Type.Object({
  command: Type.String({ description: "Shell command to execute" }),
  workdir: Type.Optional(Type.String({ description: "Working directory (defaults to the workspace)" })),
  env: Type.Optional(
    Type.Record(Type.String(), Type.String(), { description: "Extra environment variables" }),
  ),
  yieldMs: Type.Optional(
    Type.Number({ description: "Milliseconds to wait before backgrounding (default 10000)" }),
  ),
  background: Type.Optional(Type.Boolean({ description: "Run in background immediately" })),
  timeout: Type.Optional(Type.Number({ description: "Timeout in seconds (kills the process on expiry)" })),
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
});

export interface ExecDetails {
  status: "completed" | "failed" | "running";
  exitCode?: number | null;
  exitSignal?: string | null;
  durationMs?: number;
  sessionId?: string;
  pid?: number;
  startedAt?: number;
  cwd: string;
  tail?: string;
  aggregated?: string;
}

export interface ExecToolOptions {
  registry: ProcessRegistry;
  /** Configured security (default full) and ask (default off); a call may only tighten them. */
  security?: ExecSecurity;
  ask?: ExecAsk;
  allowlist?: AllowlistEntry[];
  safeBins?: string[];
  safeBinTrustedDirs?: string[];
  /** Asked when approval is needed; absent ⇒ such commands are denied with guidance. */
  approval?: ExecApprovalHandler;
  /** Milliseconds an approval may take before it counts as a deny (default 30 min). */
  approvalTimeoutMs?: number;
  /** Foreground timeout in seconds (default 1800). */
  timeoutSec?: number;
  /** Yield window in ms (else PI_BASH_YIELD_MS, else 10000; clamped 10..120000). */
  backgroundMs?: number;
  /** Background sessions are possible (false when `process` is not available). */
  allowBackground?: boolean;
  /**
   * Where runs go when the call does not say (default auto: the sandbox host when one is
   * configured, else this machine). A call may name another host only when this is auto.
   */
  host?: ExecTarget;
  /** Hosts other than this machine: `sandbox` (a container, a VM…) and `node` (a remote node). */
  hosts?: Partial<Record<"sandbox" | "node", ExecHost>>;
  /** Whether `elevated: true` calls may run, on this machine (default off). */
  elevated?: ElevatedLevel;
  shell?: string;
  /**
   * stdin of non-PTY runs: "closed" (default, as OpenClaw: programs read EOF at once, nothing
   * waits for input) or "open" (a pipe that `process write` can feed after the run backgrounds).
   */
  stdin?: "closed" | "open";
  /**
   * Told when a run that went to the background ends (OpenClaw queues this as a system event
   * for the agent). Successful runs without output are not reported unless
   * `notifyOnExitEmptySuccess` is true.
   */
  onBackgroundExit?: (notice: BackgroundExitNotice) => void;
  /** Report background exits at all (default true; needs `onBackgroundExit`). */
  notifyOnExit?: boolean;
  notifyOnExitEmptySuccess?: boolean;
}

const DEFAULT_TIMEOUT_SEC = 1800;
const TIMEOUT_HINT =
  "If this command is expected to take longer, re-run with a higher timeout (e.g., exec timeout=300), or with background=true / yieldMs and follow up with process; do not rely on a trailing '&'.";

function runningResult(session: ProcessSession): AgentToolResult<ExecDetails> {
  return {
    content: [
      {
        type: "text",
        text: `Command still running (session ${session.id}, pid ${session.pid}). Use process (list/poll/log/write/kill/clear/remove) for follow-up.`,
      },
    ],
    details: {
      status: "running",
      sessionId: session.id,
      pid: session.pid!,
      startedAt: session.startedAt,
      cwd: session.cwd,
      tail: session.tail,
    },
  };
}

/** The final text of a finished run; 126/127 and timeouts are failures (thrown → isError). */
function finishedResult(
  session: ProcessSession,
  timedOutSec: number | undefined,
): AgentToolResult<ExecDetails> {
  const output = session.aggregated.value.trim();
  const exit = session.exit!;
  const durationMs = (session.endedAt ?? Date.now()) - session.startedAt;
  const base = {
    exitCode: exit.exitCode,
    exitSignal: exit.exitSignal,
    durationMs,
    cwd: session.cwd,
    sessionId: session.id,
  };
  const fail = (reason: string): never => {
    throw new Error(output ? `${output}\n\n${reason}` : reason);
  };
  if (session.spawnError) fail(`Failed to start the command: ${session.spawnError}`);
  if (timedOutSec !== undefined) fail(`Command timed out after ${timedOutSec} seconds. ${TIMEOUT_HINT}`);
  if (exit.exitCode === 127) fail("Command not found");
  if (exit.exitCode === 126) fail("Command not executable (permission denied)");
  if (exit.exitCode === null) fail(`Command aborted by signal ${exit.exitSignal}`);
  const exitNote = exit.exitCode !== 0 ? `\n\n(Command exited with code ${exit.exitCode})` : "";
  const text = (output || "(no output)") + exitNote;
  return { content: [{ type: "text", text }], details: { status: "completed", ...base, aggregated: output } };
}

export function createExecTool(
  ctx: ToolContext,
  options: ExecToolOptions,
): AgentTool<typeof execSchema, ExecDetails> {
  const scopeKey = ctx.sessionKey ?? `agent:${ctx.agentId ?? "main"}`;
  const alwaysAllowed = new Set<string>();
  const defaultYieldMs = resolveYieldMs(options.backgroundMs);

  const checkSecurity = async (
    command: string,
    cwd: string,
    host: ExecHostKind,
    { security, ask }: { security: ExecSecurity; ask: ExecAsk },
    signal?: AbortSignal,
  ) => {
    if (security === "deny") throw new ToolInputError(`exec denied: host=${host} security=deny`);
    let reason: string | undefined;
    let misses: string[] = [];
    if (security === "allowlist") {
      const analysis = analyzeCommandLine(command);
      if (!analysis.ok) reason = `command could not be analysed (${analysis.reason})`;
      else {
        misses = allowlistMisses(analysis.segments, {
          entries: options.allowlist ?? [],
          ...(options.safeBins ? { safeBins: options.safeBins } : {}),
          ...(options.safeBinTrustedDirs ? { trustedDirs: options.safeBinTrustedDirs } : {}),
        }).map((segment) => segment.join(" "));
        if (misses.length) reason = `allowlist miss: ${misses.join("; ")}`;
      }
      if (reason && ask === "off") throw new ToolInputError(`exec denied: ${reason}`);
    }
    if (ask === "always") reason ??= "ask=always";
    if (!reason || alwaysAllowed.has(command)) return;
    if (!options.approval) throw new ToolInputError(`${NO_APPROVAL_ROUTE} (${reason})`);
    const timeoutMs = options.approvalTimeoutMs ?? 30 * 60_000;
    let timer: NodeJS.Timeout | undefined;
    const decision = await Promise.race([
      options.approval({ command, cwd, reason, misses }, signal).catch(() => "deny" as const),
      new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
    if (decision === "timeout") throw new ToolInputError("exec denied: approval timed out");
    if (decision === "deny") throw new ToolInputError("exec denied: Denied by user");
    if (decision === "allow-always") alwaysAllowed.add(command);
  };

  return {
    name: "exec",
    label: "exec",
    description:
      "Execute shell commands with background continuation. Use yieldMs/background to continue later via the process tool. Use pty=true for TTY-required commands (terminal UIs, coding agents).",
    parameters: execSchema,
    async execute(_id, params, signal, onUpdate): Promise<AgentToolResult<ExecDetails>> {
      signal?.throwIfAborted();
      const command = params.command?.trim() ? params.command : "";
      if (!command) throw new ToolInputError("Provide a command to start.");
      const base = ctx.workspaceDir ?? process.cwd();
      const cwd = params.workdir ? path.resolve(base, params.workdir) : base;
      if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory())
        throw new ToolInputError(`Working directory does not exist: ${cwd}`);
      // one parse of the command line serves both the /approve refusal and the script preflight
      const commands = commandsOf(command);
      refuseApprovalCommands(command, commands);
      // the call's own variables are checked before anyone is asked to approve the run
      const callEnv = params.env ? sanitizeEnv({}, params.env) : {};
      const hostKind = resolveExecHost({
        configured: options.host ?? "auto",
        requested: params.host,
        elevated: params.elevated === true,
        sandboxAvailable: options.hosts?.sandbox !== undefined,
        nodeAvailable: options.hosts?.node !== undefined,
      });
      let policy = {
        security: effectiveSecurity(options.security ?? "full", params.security),
        ask: effectiveAsk(options.ask ?? "off", params.ask),
      };
      if (params.elevated) policy = applyElevated(options.elevated ?? "off", policy);
      await checkSecurity(command, cwd, hostKind, policy, signal);

      if (hostKind !== "gateway") {
        // resolveExecHost only picks a remote host that is configured; it brings its own
        // environment: this machine's (keys, tokens) never leaves it
        return runOnHost(options.hosts![hostKind]!, command, cwd, callEnv, params, signal, onUpdate);
      }
      // the scripts are on this machine only when the command runs here
      await preflightScripts(command, cwd, commands);
      const env = Object.assign(sanitizeEnv(process.env, undefined), callEnv);

      const session = options.registry.spawn({
        command,
        cwd,
        env,
        scopeKey,
        ...(params.pty ? { pty: true } : {}),
        ...(options.shell ? { shell: options.shell } : {}),
        ...(options.stdin ? { stdin: options.stdin } : {}),
      });
      const canBackground = options.allowBackground !== false;
      const explicitTimeout = params.timeout !== undefined && params.timeout > 0 ? params.timeout : undefined;
      const yieldRequested = params.background === true || params.yieldMs !== undefined;
      const timeoutSec =
        explicitTimeout ??
        (yieldRequested && canBackground ? undefined : (options.timeoutSec ?? DEFAULT_TIMEOUT_SEC));
      let timedOut = false;
      const timer = timeoutSec
        ? setTimeout(() => {
            timedOut = true;
            session.kill("SIGKILL");
          }, timeoutSec * 1000)
        : undefined;
      timer?.unref();
      session.exited.then(() => {
        clearTimeout(timer);
        if (options.notifyOnExit === false || !options.onBackgroundExit) return;
        const notice = backgroundExitNotice(session, {
          emptySuccess: options.notifyOnExitEmptySuccess === true,
        });
        if (notice) options.onBackgroundExit(notice);
      });

      if (params.background && canBackground) {
        session.backgrounded = true;
        return runningResult(session);
      }
      const yieldMs = canBackground
        ? params.yieldMs !== undefined
          ? clampYield(params.yieldMs)
          : defaultYieldMs
        : undefined;
      const stopUpdates = session.onData(() => {
        onUpdate?.({
          content: [{ type: "text", text: session.tail }],
          details: { status: "running", cwd, sessionId: session.id, tail: session.tail },
        });
      });
      const onAbort = () => session.kill("SIGKILL");
      signal?.addEventListener("abort", onAbort, { once: true });
      let yieldTimer: NodeJS.Timeout | undefined;
      try {
        const outcome = await Promise.race([
          session.exited.then(() => "exited" as const),
          ...(yieldMs !== undefined
            ? [
                new Promise<"yield">((resolve) => {
                  yieldTimer = setTimeout(() => resolve("yield"), yieldMs);
                }),
              ]
            : []),
        ]);
        if (outcome === "yield" && session.running) {
          // the call returns; the process lives on as a session and stops streaming to this call
          session.backgrounded = true;
          return runningResult(session);
        }
        if (signal?.aborted) throw new Error("Command aborted");
        return finishedResult(session, timedOut ? timeoutSec : undefined);
      } finally {
        clearTimeout(yieldTimer);
        stopUpdates();
        signal?.removeEventListener("abort", onAbort);
      }
    },
  };
}

async function runOnHost(
  host: ExecHost,
  command: string,
  cwd: string,
  env: Record<string, string>,
  { timeout, node }: { timeout?: number | undefined; node?: string | undefined },
  signal: AbortSignal | undefined,
  onUpdate: AgentToolUpdateCallback<ExecDetails> | undefined,
): Promise<AgentToolResult<ExecDetails>> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  let output = "";
  const started = Date.now();
  try {
    const exit = await host.run(command, {
      cwd,
      env,
      signal: controller.signal,
      ...(timeout ? { timeoutMs: timeout * 1000 } : {}),
      ...(node ? { node } : {}),
      onData: (chunk) => {
        output += chunk;
        onUpdate?.({
          content: [{ type: "text", text: output.slice(-2000) }],
          details: { status: "running", cwd },
        });
      },
    });
    const text = output.trim();
    if (exit.exitCode === 127) throw new Error(text ? `${text}\n\nCommand not found` : "Command not found");
    const note = exit.exitCode !== 0 ? `\n\n(Command exited with code ${exit.exitCode})` : "";
    return {
      content: [{ type: "text", text: (text || "(no output)") + note }],
      details: {
        status: "completed",
        exitCode: exit.exitCode,
        durationMs: Date.now() - started,
        cwd,
        aggregated: text,
      },
    };
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}
