import type { AgentRunner, RunOutcome, StartRunRequest } from "@clawtools/core/contracts";
import type { AcpRunner } from "./runner.js";

/** OpenClaw's key for an ACP session: `agent:<agentId>:acp:<uuid>` (sub-agents are `…:subagent:…`). */
export const ACP_SESSION_KEY = /^agent:[^:]+:acp:/;

export const isAcpSessionKey = (sessionKey: string): boolean => ACP_SESSION_KEY.test(sessionKey);

/**
 * One AgentRunner for the sessions plugin that runs ACP sessions (`agent:<id>:acp:<uuid>` keys)
 * on `acp` and every other session on `runner`: a spawn with runtime=acp and later
 * `sessions_send`s to that child reach the ACP agent, everything else the app's own loop.
 * `wait`, `abort` and `steer` go to the runner that started the run.
 */
export function withAcpSessions(
  runner: AgentRunner | undefined,
  acp: AcpRunner,
): AgentRunner & { readonly acp: AcpRunner } {
  const owners = new Map<string, AgentRunner>();
  const routed: AgentRunner & { readonly acp: AcpRunner } = {
    acp,
    runtimes: runner ? ["subagent", "acp"] : ["acp"],
    async start(request: StartRunRequest) {
      const target = isAcpSessionKey(request.sessionKey) ? acp : runner;
      if (!target)
        throw new Error(`no agent runner for session ${request.sessionKey} (only ACP sessions can run)`);
      const { runId } = await target.start(request);
      owners.set(runId, target);
      return { runId };
    },
    async wait(runId, timeoutMs): Promise<RunOutcome> {
      const owner = owners.get(runId);
      return owner ? owner.wait(runId, timeoutMs) : { status: "error", error: `Unknown run: ${runId}` };
    },
    async abort(runId) {
      await owners.get(runId)?.abort(runId);
    },
    async steer(runId, message) {
      const owner = owners.get(runId);
      return owner ? owner.steer(runId, message) : false;
    },
  };
  if (runner?.onYield) {
    const onYield = runner.onYield.bind(runner);
    routed.onYield = (sessionKey, message) =>
      isAcpSessionKey(sessionKey)
        ? Promise.reject(new Error("an ACP session cannot yield its turn"))
        : onYield(sessionKey, message);
  }
  return routed;
}
