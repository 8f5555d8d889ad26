import type { ApprovalDecision, ToolApprovalHandler, ToolApprovalRequest } from "@clawtools/core";
import type { ClientCapabilities } from "@modelcontextprotocol/server";

/** The choices the client's form offers, in order; "deny" is the default. */
export const APPROVAL_CHOICES: ReadonlyArray<{ const: ApprovalDecision; title: string }> = [
  { const: "allow-once", title: "Allow once" },
  { const: "allow-always", title: "Allow always" },
  { const: "deny", title: "Deny" },
];

/** The SDK's per-request timeout is not used: core's approval timeout aborts the request instead. */
const NO_SDK_TIMEOUT_MS = 2 ** 31 - 1;

/** A client that declared `elicitation` with form mode (an empty object means form, per the spec). */
export function supportsFormElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation as { form?: unknown; url?: unknown } | undefined;
  if (!elicitation || typeof elicitation !== "object") return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/** What the person sees: the tool, the command as it will run, where, and why. */
export function approvalMessage(request: ToolApprovalRequest): string {
  return [
    `${request.tool} wants to run a command that needs your approval.`,
    `Command: ${request.command}`,
    `Working directory: ${request.cwd}`,
    `Why: ${request.reason}`,
  ].join("\n");
}

/** The form that asks: the message and one required choice, `decision` (default deny). */
export function approvalForm(request: ToolApprovalRequest) {
  return {
    mode: "form" as const,
    message: approvalMessage(request),
    requestedSchema: {
      type: "object" as const,
      properties: {
        decision: {
          type: "string" as const,
          title: "Decision",
          description: `Run \`${request.command}\` in ${request.cwd}?`,
          oneOf: APPROVAL_CHOICES.map((c) => ({ ...c })),
          default: "deny",
        },
      },
      required: ["decision"],
    },
  };
}

/** The call handler's `ctx.mcpReq.send` (SDK v2): for spec methods the result is parsed by method. */
type SendRequest = (
  request: { method: "elicitation/create"; params: Record<string, unknown> },
  options: { signal: AbortSignal; timeout: number },
) => Promise<{ action: string; content?: Record<string, unknown> | undefined }>;

/**
 * An approval handler asking the MCP client through `elicitation/create` (a form with one choice:
 * allow once, allow always, deny). Sent on the tool call's own request (`sendRequest` from the
 * call's handler), so Streamable HTTP routes it to the caller. Decline, cancel, an answer outside
 * the three choices, and a failed request all deny; when core's timeout fires, the request is
 * cancelled (the SDK sends `notifications/cancelled`).
 */
export function elicitationApprovalHandler(sendRequest: SendRequest): ToolApprovalHandler {
  return async (request, signal) => {
    const result = await sendRequest(
      { method: "elicitation/create", params: approvalForm(request) },
      { signal, timeout: NO_SDK_TIMEOUT_MS },
    );
    if (result.action !== "accept") return "deny";
    const decision = result.content?.decision;
    return APPROVAL_CHOICES.some((c) => c.const === decision) ? (decision as ApprovalDecision) : "deny";
  };
}
