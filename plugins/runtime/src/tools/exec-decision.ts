import { ToolInputError } from "@clawtools/core";
import { ApprovalGate, type ToolApprovalHandler } from "@clawtools/core/approvals";
import { type AllowlistEntry, evaluateAllowlist } from "../security/allowlist.js";
import { describeVerdict, type ExecPolicy, type PolicyVerdict } from "../security/exec-policy.js";
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
  /** Where "allow always" answers are kept (`<stateDir>/approvals.json`); absent ⇒ this gate's lifetime. */
  stateDir?: string;
  /** Milliseconds an approval may take before it counts as a deny (default 30 min). */
  approvalTimeoutMs?: number;
  /** Deny / ask / allow rules over every program the command would start. */
  policy?: ExecPolicy;
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
  /** The command runs inside the sandbox: under ask=on-miss an allowlist miss needs no approval. */
  sandboxed?: boolean;
  /**
   * The call leaves a configured sandbox (elevated): it always goes through the approval path
   * (refused when there is none: ask=off), whatever the security level.
   */
  leavesSandbox?: boolean;
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
  private readonly approvals: ApprovalGate<ExecApprovalRequest>;
  constructor(private readonly options: ExecGateOptions) {
    this.approvals = new ApprovalGate<ExecApprovalRequest>({
      ...(options.approval ? { handler: options.approval as ToolApprovalHandler<ExecApprovalRequest> } : {}),
      timeoutMs: options.approvalTimeoutMs ?? 30 * 60_000,
      ...(options.stateDir ? { stateDir: options.stateDir } : {}),
    });
  }

  async decide(request: ExecGateRequest, signal?: AbortSignal): Promise<string> {
    const { command, security, ask, host } = request;
    if (security === "deny") throw new ToolInputError(`exec denied: host=${host} security=deny`);
    let toRun = command;
    let reason: string | undefined;
    let misses: string[] = [];
    // the rules first: a deny never reaches an approval, an ask always does
    const verdict: PolicyVerdict | undefined = this.options.policy?.size
      ? this.options.policy.evaluate(command)
      : undefined;
    if (verdict?.decision === "deny") throw new ToolInputError(`exec denied by ${describeVerdict(verdict)}`);
    if (verdict?.decision === "ask") reason = `approval required by ${describeVerdict(verdict)}`;
    else if (security === "allowlist" && verdict?.decision === "allow") {
      // every program it starts is allowed by a rule: it runs as written
    } else if (security === "allowlist") {
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
      // inside the sandbox a miss cannot reach past the workspace or the URL policy
      if (reason && request.sandboxed && ask === "on-miss") reason = undefined;
      if (reason && ask === "off") throw new ToolInputError(`exec denied: ${reason}`);
    }
    if (request.leavesSandbox) {
      if (ask === "off")
        throw new ToolInputError(
          "exec denied: running outside the sandbox (elevated) needs an approval, and exec.ask is off. Set exec.ask to on-miss or always (with an approval route), or exec.elevated to full.",
        );
      reason ??= "runs outside the sandbox (elevated)";
    }
    if (ask === "always") reason ??= "ask=always";
    if (!reason) return toRun;
    // "allow always" covers this exact command line, host and call variables, nothing broader
    const key = `${host}\u0000${command}\u0000${JSON.stringify(request.envOverrides)}`;
    const outcome = await this.approvals.decide(
      {
        tool: "exec",
        command,
        cwd: request.cwd,
        reason,
        misses,
        host,
        env: request.env,
        envOverrides: request.envOverrides,
      },
      key,
      signal,
    );
    if (outcome === "unavailable") throw new ToolInputError(`${NO_APPROVAL_ROUTE} (${reason})`);
    if (outcome === "timeout") throw new ToolInputError("exec denied: approval timed out");
    if (outcome === "cancelled") throw new ToolInputError("exec denied: Approval cancelled (run aborted)");
    if (outcome === "deny") throw new ToolInputError("exec denied: Denied by user");
    return command;
  }
}
