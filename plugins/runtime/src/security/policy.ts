export type ExecSecurity = "deny" | "allowlist" | "full";
export type ExecAsk = "off" | "on-miss" | "always";

const SECURITY_ORDER: ExecSecurity[] = ["deny", "allowlist", "full"];
const ASK_ORDER: ExecAsk[] = ["off", "on-miss", "always"];

/** A call may only tighten: the stricter security and the more demanding ask win. */
export function effectiveSecurity(configured: ExecSecurity, requested?: ExecSecurity): ExecSecurity {
  if (!requested) return configured;
  return SECURITY_ORDER[Math.min(SECURITY_ORDER.indexOf(configured), SECURITY_ORDER.indexOf(requested))]!;
}

export function effectiveAsk(configured: ExecAsk, requested?: ExecAsk): ExecAsk {
  if (!requested) return configured;
  return ASK_ORDER[Math.max(ASK_ORDER.indexOf(configured), ASK_ORDER.indexOf(requested))]!;
}

export type ExecApprovalDecision = "allow-once" | "allow-always" | "deny";

/** Core's `ToolApprovalRequest` (tool, command, cwd, reason) with exec's own details. */
export interface ExecApprovalRequest {
  tool: "exec";
  command: string;
  cwd: string;
  /** Why approval is needed: `ask=always`, an allowlist miss, or a command we could not analyse. */
  reason: string;
  /** The segments no allowlist entry covers. */
  misses: string[];
  /** Where it runs: `gateway` (this machine), `sandbox` or `node`. */
  host: "gateway" | "sandbox" | "node";
  /**
   * The whole environment the command will get: on this machine the inherited environment
   * (dangerous keys dropped) plus the call's variables; on another host only the call's.
   */
  env: Record<string, string>;
  /** The variables the call itself sets (a subset of `env`). */
  envOverrides: Record<string, string>;
}

export type ExecApprovalHandler = (
  request: ExecApprovalRequest,
  signal?: AbortSignal,
) => Promise<ExecApprovalDecision>;

export const NO_APPROVAL_ROUTE =
  "exec denied: this command needs approval but no approval handler is configured. To allow it, add an allowlist entry for it (runtime option exec.allowlist), pass an approval handler (exec.approval), or configure security=full with ask=off.";
