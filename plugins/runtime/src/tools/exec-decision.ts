import { ToolInputError } from "@clawtools/core";
import { type AllowlistEntry, evaluateAllowlist } from "../security/allowlist.js";
import { DEFAULT_SAFE_BINS, DEFAULT_TRUSTED_DIRS } from "../security/safe-bin-profiles.js";
import {
  type ExecApprovalHandler,
  type ExecApprovalRequest,
  type ExecAsk,
  type ExecSecurity,
  NO_APPROVAL_ROUTE,
} from "../security/policy.js";
import type { ExecHostKind } from "./exec-target.js";

export interface ExecGateOptions {
  allowlist?: readonly AllowlistEntry[];
  safeBins?: readonly string[];
  /** Added to /bin and /usr/bin. */
  safeBinTrustedDirs?: readonly string[];
  allowRedirections?: boolean;
  approval?: ExecApprovalHandler;
  /** Milliseconds an approval may take before it counts as a deny (default 30 min). */
  approvalTimeoutMs?: number;
}

export interface ExecGateRequest {
  command: string;
  cwd: string;
  /** The workspace root, resolved (redirections and executables are judged against it). */
  workspaceDir: string;
  host: ExecHostKind;
  security: ExecSecurity;
  ask: ExecAsk;
  env: Record<string, string>;
  envOverrides: Record<string, string>;
}

const MAX_MISSES_SHOWN = 5;

function describeMisses(misses: string[]): string {
  const shown = misses.slice(0, MAX_MISSES_SHOWN).join("; ");
  return misses.length > MAX_MISSES_SHOWN ? `${shown}; and ${misses.length - MAX_MISSES_SHOWN} more` : shown;
}

/**
 * The security decision for one exec call: deny, the allowlist (fail closed: a command that
 * cannot be fully analysed is a miss), ask, and the approval handler. Returns the command line
 * to run: in allowlist mode the rebuilt line whose programs are the absolute paths that were
 * checked; after an approval, the command the user saw.
 */
export class ExecGate {
  private readonly alwaysAllowed = new Set<string>();
  constructor(private readonly options: ExecGateOptions) {}

  async decide(request: ExecGateRequest, signal?: AbortSignal): Promise<string> {
    const { command, security, ask, host } = request;
    if (security === "deny") throw new ToolInputError(`exec denied: host=${host} security=deny`);
    let toRun = command;
    let reason: string | undefined;
    let misses: string[] = [];
    if (security === "allowlist") {
      const verdict = evaluateAllowlist(command, {
        entries: this.options.allowlist ?? [],
        safeBins: this.options.safeBins ?? DEFAULT_SAFE_BINS,
        trustedDirs: [...DEFAULT_TRUSTED_DIRS, ...(this.options.safeBinTrustedDirs ?? [])],
        searchPath: (request.env.PATH ?? "").split(":"),
        cwd: request.cwd,
        workspaceDir: request.workspaceDir,
        allowRedirections: this.options.allowRedirections === true,
      });
      if (verdict.ok) {
        // another host resolves programs itself: it gets the command as written
        if (host === "gateway") toRun = verdict.command;
      } else if (!verdict.analysable) {
        reason = `command could not be analysed (${verdict.misses[0]})`;
      } else {
        misses = verdict.misses;
        reason = `allowlist miss: ${describeMisses(misses)}`;
      }
      if (reason && ask === "off") throw new ToolInputError(`exec denied: ${reason}`);
    }
    if (ask === "always") reason ??= "ask=always";
    if (!reason) return toRun;
    const key = `${command}\u0000${JSON.stringify(request.envOverrides)}`;
    if (this.alwaysAllowed.has(key)) return command;
    if (!this.options.approval) throw new ToolInputError(`${NO_APPROVAL_ROUTE} (${reason})`);
    const decision = await this.ask(
      {
        command,
        cwd: request.cwd,
        reason,
        misses,
        host,
        env: request.env,
        envOverrides: request.envOverrides,
      },
      signal,
    );
    if (decision === "allow-always") this.alwaysAllowed.add(key);
    return command;
  }

  private async ask(
    request: ExecApprovalRequest,
    signal?: AbortSignal,
  ): Promise<"allow-once" | "allow-always"> {
    const timeoutMs = this.options.approvalTimeoutMs ?? 30 * 60_000;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const decision = await Promise.race([
      this.options.approval!(request, signal).catch(() => "deny" as const),
      new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), timeoutMs);
      }),
      new Promise<"aborted">((resolve) => {
        onAbort = () => resolve("aborted");
        if (signal?.aborted) onAbort();
        else signal?.addEventListener("abort", onAbort, { once: true });
      }),
    ]).finally(() => {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener("abort", onAbort);
    });
    if (decision === "timeout") throw new ToolInputError("exec denied: approval timed out");
    if (decision === "aborted") throw new ToolInputError("exec denied: Approval cancelled (run aborted)");
    if (decision === "allow-once" || decision === "allow-always") return decision;
    throw new ToolInputError("exec denied: Denied by user");
  }
}
