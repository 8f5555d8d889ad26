// A tool gated like exec under ask=always, for the approval tests of both protocol eras: it runs
// its "command" only once core's approval path allows it (no handler given in code: the one the
// server installs around the call is used).
import { createToolset, definePlugin, ToolInputError, Type } from "@clawtools/core";
import { ApprovalGate, type ToolApprovalRequest } from "@clawtools/core/approvals";

/** What the tool says when no client can be asked. */
export const NO_ROUTE = "needs approval but no approval handler is configured";

export interface GatedOptions {
  /** The working directory the approval form shows. */
  workspaceDir: string;
  /** Where allow-always decisions are kept. */
  stateDir: string;
  /** Each command the tool ran, in order. */
  ran: string[];
  /** How long the gate waits for an answer (core's default when absent). */
  timeoutMs?: number;
}

/** A toolset with the one tool `gated_run`, which answers `ran <command>` once approved. */
export function gatedToolset({ workspaceDir, stateDir, ran, timeoutMs }: GatedOptions) {
  const plugin = definePlugin({
    id: "gated",
    version: "1.0.0",
    tools: [
      {
        name: "gated_run",
        factory: (ctx) => {
          const gate = new ApprovalGate({
            ...(ctx.stateDir ? { stateDir: ctx.stateDir } : {}),
            ...(timeoutMs ? { timeoutMs } : {}),
          });
          return {
            name: "gated_run",
            label: "Gated run",
            description: "runs a command after approval",
            parameters: Type.Object({ command: Type.String() }),
            async execute(_id: string, params: { command: string }, signal?: AbortSignal) {
              const request: ToolApprovalRequest = {
                tool: "gated_run",
                command: params.command,
                cwd: workspaceDir,
                reason: "ask=always",
              };
              const outcome = await gate.decide(request, params.command, signal);
              if (outcome === "unavailable") throw new ToolInputError(`denied: this command ${NO_ROUTE}`);
              if (outcome !== "allow-once" && outcome !== "allow-always" && outcome !== "remembered")
                throw new ToolInputError(`denied: ${outcome}`);
              ran.push(params.command);
              return {
                content: [{ type: "text" as const, text: `ran ${params.command}` }],
                details: undefined,
              };
            },
          };
        },
      },
    ],
  });
  return createToolset({ plugins: [plugin], context: { workspaceDir, stateDir } });
}

/** How a test's client answers an approval form. */
export type Answer = { action: "accept" | "decline" | "cancel"; content?: Record<string, string> };
