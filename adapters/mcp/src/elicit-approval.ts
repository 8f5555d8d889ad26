import { type ToolApprovalHandler, type ToolApprovalRequest, visibleText } from "@clawtools/core/approvals";
import type { ClientChannel } from "@clawtools/core/client";
import type { ApprovalDecision } from "@clawtools/core/wrap";
import type { ClientCapabilities } from "@modelcontextprotocol/server";

/** The choices the client's form offers, in order; "deny" is the default. */
export const APPROVAL_CHOICES: ReadonlyArray<{ const: ApprovalDecision; title: string }> = [
  { const: "allow-once", title: "Allow once" },
  { const: "allow-always", title: "Allow always" },
  { const: "deny", title: "Deny" },
];

/** A client that declared `elicitation` with form mode (an empty object means form, per the spec). */
export function supportsFormElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation as { form?: unknown; url?: unknown } | undefined;
  if (!elicitation || typeof elicitation !== "object") return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/** The variables the call sets for its command (exec's `env`), when the request carries them. */
function envOverrides(request: ToolApprovalRequest): string | undefined {
  const env = (request as { envOverrides?: unknown }).envOverrides;
  if (!env || typeof env !== "object") return undefined;
  const pairs = Object.entries(env as Record<string, unknown>).map(([k, v]) => `${k}=${String(v)}`);
  return pairs.length ? pairs.join(" ") : undefined;
}

/**
 * What the person sees: the tool, the command as it will run, where, with which variables, and
 * why. Every part is shown with its control, ANSI, bidi and zero-width characters escaped
 * (`visibleText`): what is approved is exactly what is read.
 */
export function approvalMessage(request: ToolApprovalRequest): string {
  const env = envOverrides(request);
  return [
    `${visibleText(request.tool)} wants to run a command that needs your approval.`,
    `Command: ${visibleText(request.command)}`,
    `Working directory: ${visibleText(request.cwd)}`,
    ...(env ? [`Environment: ${visibleText(env)}`] : []),
    `Why: ${visibleText(request.reason)}`,
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
          description: `Run \`${visibleText(request.command)}\` in ${visibleText(request.cwd)}?`,
          oneOf: APPROVAL_CHOICES.map((c) => ({ ...c })),
          default: "deny",
        },
      },
      required: ["decision"],
    },
  };
}

/** The key of an approval's question (`inputRequests` / `inputResponses` on 2026-07-28). */
export const APPROVAL_INPUT_KEY = "approval";

/**
 * An approval handler asking the call's client (`ClientChannel.elicit`) with a form of one choice:
 * allow once, allow always, deny. On a 2025-era connection that is an `elicitation/create` sent
 * on the call's own request; on 2026-07-28 an `input_required` round; in a task, the task's
 * `input_required`. Decline, cancel, an answer outside the three choices, and a failed request
 * all deny; when core's timeout fires, the question is withdrawn.
 */
export function clientApprovalHandler(client: ClientChannel): ToolApprovalHandler {
  return async (request, signal) => {
    const result = await client.elicit(approvalForm(request), { key: APPROVAL_INPUT_KEY, signal });
    if (result.action !== "accept") return "deny";
    const decision = result.content?.decision;
    return APPROVAL_CHOICES.some((c) => c.const === decision) ? (decision as ApprovalDecision) : "deny";
  };
}
