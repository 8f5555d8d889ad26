import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { ToolApprovalHandler, ToolApprovalRequest } from "@clawtools/core/approvals";
import type { ApprovalDecision } from "@clawtools/core/wrap";
import { runWithApprovalHandler } from "@clawtools/core/approvals";
import {
  createRequestStateCodec,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { APPROVAL_CHOICES, approvalForm } from "./elicit-approval.js";

/**
 * Approvals on MCP 2026-07-28, which has no server-to-client request: the multi-round-trip
 * pattern (spec basic/patterns/mrtr). A call whose tool asks for approval is stopped before the
 * command runs and answered `input_required` with the approval form as an embedded
 * `elicitation/create` and a signed `requestState`; the client retries the call with the
 * person's answer (`inputResponses.approval`), and the tool runs again from the start, its
 * approvals answered from the decisions gathered so far.
 */

/** The key of the embedded elicitation in `inputRequests` / `inputResponses`. */
export const APPROVAL_INPUT_KEY = "approval";

interface Decided {
  command: string;
  cwd: string;
  decision: ApprovalDecision;
}

interface ApprovalState {
  tool: string;
  /** SHA-256 of the call's arguments: a state is good for the call it was minted for only. */
  args: string;
  decided: Decided[];
  pending: { command: string; cwd: string };
  /** Single use: a retry cannot be replayed to run an "allow once" command again. */
  nonce: string;
}

// one key per process: every round of a flow reaches this process (stateless HTTP keeps no
// affinity across processes, so a state minted elsewhere is refused as invalid)
const codec = createRequestStateCodec<ApprovalState>({ key: randomBytes(32), ttlSeconds: 600 });
const STATE_TTL_MS = 600_000;
const usedNonces = new Map<string, number>();

/** `ServerOptions.requestState` for the Server: rejects forged, expired or malformed state. */
export const approvalStateOptions = { verify: codec.verify };

function argsHash(args: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify(args ?? {}))
    .digest("hex");
}

function spend(nonce: string): boolean {
  const now = Date.now();
  for (const [key, until] of usedNonces) if (until < now) usedNonces.delete(key);
  if (usedNonces.has(nonce)) return false;
  usedNonces.set(nonce, now + STATE_TTL_MS);
  return true;
}

/** A retry whose state does not fit it: answered as a JSON-RPC error (-32602), not a tool result. */
export class RequestStateError extends Error {
  readonly code = ProtocolErrorCode.InvalidParams;
}

const invalid = (message: string) => new RequestStateError(message);

/** The decisions this round carries: the verified state's, plus the answer to its pending approval. */
async function decisionsOf(ctx: ServerContext, tool: string, args: unknown): Promise<Decided[]> {
  const state = await ctx.mcpReq.requestState<ApprovalState>();
  if (state === undefined) return [];
  if (typeof state !== "object" || state.tool !== tool || state.args !== argsHash(args))
    throw invalid("requestState was issued for another tool call: send the call it came with");
  if (!spend(state.nonce)) throw invalid("requestState was already used: an approval answers one retry only");
  const answer = inputResponse(ctx.mcpReq.inputResponses, APPROVAL_INPUT_KEY);
  const chosen =
    answer.kind === "elicit" && answer.action === "accept" ? answer.content?.decision : undefined;
  const decision = APPROVAL_CHOICES.some((c) => c.const === chosen) ? (chosen as ApprovalDecision) : "deny";
  return [...state.decided, { ...state.pending, decision }];
}

/**
 * Runs one round of a call on a 2026-07-28 request from a client that can show a form: the tool
 * runs with its approvals answered from the decisions so far; a new one stops it (its signal
 * aborts before the command runs) and the round answers `input_required`.
 */
export async function runWithMrtrApprovals<T>(
  ctx: ServerContext,
  tool: string,
  args: unknown,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T | InputRequiredResult> {
  const decided = await decisionsOf(ctx, tool, args);
  const used = new Set<number>();
  const stop = new AbortController();
  const onCancel = () => stop.abort(ctx.mcpReq.signal.reason);
  ctx.mcpReq.signal.addEventListener("abort", onCancel, { once: true });
  let asked: (request: ToolApprovalRequest) => void = () => {};
  const needed = new Promise<ToolApprovalRequest>((resolve) => {
    asked = resolve;
  });
  const handler: ToolApprovalHandler = (request, signal) => {
    const index = decided.findIndex(
      (d, i) => !used.has(i) && d.command === request.command && d.cwd === request.cwd,
    );
    if (index !== -1) {
      used.add(index);
      return Promise.resolve(decided[index]!.decision);
    }
    asked(request);
    // never answered in this round: the tool is stopped and the client asked
    return new Promise<ApprovalDecision>((_resolve, reject) => {
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
  };
  try {
    const running = runWithApprovalHandler(handler, () => run(stop.signal));
    const first = await Promise.race([
      running.then((result) => ({ result })),
      needed.then((request) => ({ request })),
    ]);
    if ("result" in first) return first.result;
    // the tool stops before its command (the handler never allows in this round); its own
    // approval wait may outlast the abort, and no one needs its end
    stop.abort(new Error("approval needed: asked the client"));
    void running.catch(() => {});
    const { request } = first;
    return inputRequired({
      inputRequests: { [APPROVAL_INPUT_KEY]: inputRequired.elicit(approvalForm(request)) },
      requestState: await codec.mint({
        tool,
        args: argsHash(args),
        decided,
        pending: { command: request.command, cwd: request.cwd },
        nonce: randomUUID(),
      }),
    });
  } finally {
    ctx.mcpReq.signal.removeEventListener("abort", onCancel);
  }
}
