import { realpathSync, statSync } from "node:fs";
import path from "node:path";
import { sandboxRefusalNote } from "../sandbox/refusal-note.js";
import { type AgentTool, type AgentToolResult, type ToolContext, ToolInputError } from "@clawtools/core";
import { checkCallEnv, sanitizeEnv } from "@clawtools/core/safety";
import { beginJournal } from "@clawtools/core/journal";
import { noteCall } from "@clawtools/core/wrap";
import { clampYield, resolveYieldMs } from "../process/limits.js";
import { commandsOf } from "../security/command-prefixes.js";
import { refuseApprovalCommands } from "../security/control-commands.js";
import { effectiveAsk, effectiveSecurity } from "../security/policy.js";
import { preflightScripts } from "../security/script-preflight.js";
import { quotePrefix, refuseNegative } from "../text.js";
import { ExecGate } from "./exec-decision.js";
import type { ExecDetails } from "./exec-details.js";
import { runLocally } from "./exec-local.js";
import { runOnHost } from "./exec-remote.js";
import { applyElevated, resolveExecHost } from "./exec-target.js";
import { execSchema, type ExecToolOptions } from "./exec-schema.js";

export type { ExecDetails } from "./exec-details.js";

export { type ExecCodeOptions, execSchema, type ExecToolOptions } from "./exec-schema.js";

const DEFAULT_TIMEOUT_SEC = 1800;
/** The longest command accepted: OpenClaw's exec-approval input limit (256 KiB). */
export const MAX_COMMAND_CHARS = 262_144;
const KNOWN_ARGS = new Set(Object.keys(execSchema.properties));

/** Arguments the schema does not know are refused by name, also when `execute` is called directly. */
function refuseUnknownArgs(params: object): void {
  const unknown = Object.keys(params).filter((key) => !KNOWN_ARGS.has(key));
  if (unknown.length) {
    throw new ToolInputError(
      `exec: unknown argument${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => quotePrefix(k, 40)).join(", ")}. Known arguments: ${[...KNOWN_ARGS].join(", ")}.`,
    );
  }
}

/** The real path, or the resolved one when it cannot be resolved (a workspace not created yet). */
function realOrResolved(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false; // missing, a name too long, no permission
  }
}

/** `timeout` and its alias `timeoutSeconds`: the same number, or only one of them; 0 means the default. */
function timeoutOf(params: { timeout?: number | undefined; timeoutSeconds?: number | undefined }) {
  const { timeout, timeoutSeconds } = params;
  refuseNegative("exec", "timeout", timeout);
  refuseNegative("exec", "timeoutSeconds", timeoutSeconds);
  if (timeout !== undefined && timeoutSeconds !== undefined && timeout !== timeoutSeconds)
    throw new ToolInputError(
      `exec: timeout (${timeout}) and its alias timeoutSeconds (${timeoutSeconds}) disagree; give one of them.`,
    );
  const value = timeoutSeconds ?? timeout;
  return value !== undefined && value > 0 ? value : undefined;
}

export function createExecTool(
  ctx: ToolContext,
  options: ExecToolOptions,
): AgentTool<typeof execSchema, ExecDetails> {
  const scopeKey = ctx.sessionKey ?? `agent:${ctx.agentId ?? "main"}`;
  const defaultYieldMs = resolveYieldMs(options.backgroundMs);
  const gate = new ExecGate({ ...(ctx.stateDir ? { stateDir: ctx.stateDir } : {}), ...options });

  return {
    name: "exec",
    // a long call: MCP clients may run it as a task
    taskSupport: "optional",
    label: "exec",
    description:
      "Execute shell commands with background continuation. Use yieldMs/background to continue later via the process tool. Use pty=true for TTY-required commands (terminal UIs, coding agents).",
    parameters: execSchema,
    async execute(_id, params, signal, onUpdate): Promise<AgentToolResult<ExecDetails>> {
      signal?.throwIfAborted();
      refuseUnknownArgs(params);
      const command = typeof params.command === "string" && params.command.trim() ? params.command : "";
      if (!command) throw new ToolInputError("Provide a command to start.");
      if (command.length > MAX_COMMAND_CHARS)
        throw new ToolInputError(
          `Command too long: ${command.length} characters (the limit is ${MAX_COMMAND_CHARS}). Write long scripts to a file and run the file.`,
        );
      const explicitTimeout = timeoutOf(params);
      refuseNegative("exec", "yieldMs", params.yieldMs);
      const base = ctx.workspaceDir ?? process.cwd();
      const cwd = params.workdir ? path.resolve(base, params.workdir) : base;
      if (!isDirectory(cwd))
        throw new ToolInputError(`Working directory does not exist: ${quotePrefix(cwd, 200)}`);
      // one parse of the command line serves both the /approve refusal and the script preflight
      const commands = commandsOf(command);
      refuseApprovalCommands(command, commands);
      // the call's own variables are checked before anyone is asked to approve the run
      const callEnv = checkCallEnv(params.env);
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
      const local = hostKind === "gateway";
      // remote hosts bring their own environment: this machine's (keys, tokens) never leaves it
      const env = local ? sanitizeEnv(process.env, callEnv) : callEnv;
      // an elevated call leaves the sandbox, through the approval path unless elevated is "full"
      const elevatedOut = local && params.elevated === true && options.sandbox?.active === true;
      const sandbox = local && options.sandbox?.active && !elevatedOut ? options.sandbox : undefined;
      let toRun = await gate.decide(
        {
          command,
          cwd: realOrResolved(cwd),
          workspaceDir: realOrResolved(base),
          host: hostKind,
          ...policy,
          env,
          envOverrides: callEnv,
          ...(sandbox ? { sandboxed: true } : {}),
          ...(elevatedOut && options.elevated !== "full" ? { leavesSandbox: true } : {}),
        },
        signal,
      );
      if (sandbox)
        toRun = await sandbox.wrap(toRun, {
          cwd: realOrResolved(cwd),
          workspaceDir: realOrResolved(base),
          shell: options.shell ?? "/bin/sh",
          pty: params.pty === true,
        });

      // resolveExecHost only picks a remote host that is configured
      const remote = local ? undefined : options.hosts![hostKind as "sandbox" | "node"]!;
      if (remote && !remote.processes) {
        return runOnHost(
          remote,
          command,
          cwd,
          callEnv,
          { timeoutSec: explicitTimeout, node: params.node },
          signal,
          onUpdate,
        );
      }
      // the scripts are on this machine only when the command runs here
      if (local) await preflightScripts(command, cwd, commands);

      const canBackground = options.allowBackground !== false;
      const yieldRequested = params.background === true || params.yieldMs !== undefined;
      const timeoutSec =
        explicitTimeout ??
        (yieldRequested && canBackground ? undefined : (options.timeoutSec ?? DEFAULT_TIMEOUT_SEC));
      let yieldMs: number | undefined;
      if (canBackground) yieldMs = params.yieldMs !== undefined ? clampYield(params.yieldMs) : defaultYieldMs;
      // the undo journal: a scan of the workspace before a command run on this machine, and after it exits
      const journalled = local ? await beginJournal(ctx, "exec") : undefined;
      const note = !local
        ? undefined
        : elevatedOut
          ? "none (elevated: ran outside the sandbox)"
          : options.sandbox?.status;
      if (note) noteCall("sandbox", note);
      const run = runLocally(
        {
          registry: options.registry,
          scopeKey,
          command,
          // a remote host gets the command as written and only the call's own variables
          toRun: local ? toRun : command,
          cwd,
          env,
          host: remote?.processes,
          pty: params.pty === true,
          shell: options.shell,
          stdin: options.stdin,
          timeoutSec,
          background: params.background === true && canBackground,
          yieldMs,
          onBackgroundExit: options.onBackgroundExit,
          notifyOnExit: options.notifyOnExit,
          notifyOnExitEmptySuccess: options.notifyOnExitEmptySuccess,
          spillDir: ctx.stateDir ? path.join(ctx.stateDir, "runtime", "exec-output") : undefined,
          journal: journalled,
        },
        signal,
        onUpdate,
      );
      if (!note) return run;
      // where the command ran is part of every answer: a fallback is never silent
      try {
        const result = await run;
        result.details.sandbox = note;
        const refused = note === "bwrap" ? sandboxRefusalNote(result.content, options.elevated) : undefined;
        if (refused) result.content = [...result.content, { type: "text", text: refused }];
        return result;
      } catch (error) {
        if (error instanceof Error) {
          const refused = note === "bwrap" ? sandboxRefusalNote(error.message, options.elevated) : undefined;
          if (note !== "bwrap") error.message += `\n\n(sandbox: ${note})`;
          else if (refused) error.message += `\n\n${refused}`;
        }
        throw error;
      }
    },
  };
}
