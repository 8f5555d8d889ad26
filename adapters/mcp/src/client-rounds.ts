import { createHash, randomBytes, randomUUID } from "node:crypto";
import { type ClientChannel, runWithClient } from "@clawtools/core/client";
import { runWithApprovalHandler } from "@clawtools/core/approvals";
import {
  type ClientCapabilities,
  createRequestStateCodec,
  type InputRequiredResult,
  inputRequired,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { type AskClient, type ClientMethod, channelOf, fitAnswer } from "./client-channel.js";
import { clientApprovalHandler } from "./elicit-approval.js";

/**
 * A call's questions to its client on MCP 2026-07-28, which has no server-to-client request: the
 * multi-round-trip pattern (spec basic/patterns/mrtr). The tool runs; a question it asks that has
 * no answer yet ends the round (its run is stopped, with every other question asked in the same
 * turn) and the call is answered `input_required` with the questions and a signed `requestState`;
 * the client retries with the answers (`inputResponses`), and the tool runs again from the start,
 * every question answered so far given back in order. Exec approvals are questions like any other.
 */

/** A question asked and its answer: `q` fingerprints the question, so an answer fits only it. */
interface Answered {
  q: string;
  a: unknown;
}

interface RoundState {
  /** What the state is for: `tools/call <name>` (or another request that may ask). */
  subject: string;
  /** SHA-256 of the request's arguments: a state is good for the call it was minted for only. */
  args: string;
  answers: Record<string, Answered>;
  /** The questions of the round this state closed, whose answers the retry brings. */
  asked: Record<string, { q: string; method: ClientMethod }>;
  /** Single use: a retry cannot be replayed (an "allow once" approval runs its command once). */
  nonce: string;
}

// one key per process: every round of a flow reaches this process (stateless HTTP keeps no
// affinity across processes, so a state minted elsewhere is refused as invalid)
const codec = createRequestStateCodec<RoundState>({ key: randomBytes(32), ttlSeconds: 600 });
const STATE_TTL_MS = 600_000;
const usedNonces = new Map<string, number>();

/** `ServerOptions.requestState` for the Server: rejects forged, expired or malformed state. */
export const roundStateOptions = { verify: codec.verify };

const sha256 = (value: unknown) =>
  createHash("sha256")
    .update(JSON.stringify(value ?? {}))
    .digest("hex");

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

/**
 * The answers this round carries: the verified state's, plus the retry's answers to the questions
 * the state's round asked (others are ignored; a missing or malformed one is asked again).
 */
export async function answersOf(ctx: ServerContext, subject: string, args: unknown) {
  const state = await ctx.mcpReq.requestState<RoundState>();
  if (state === undefined) return {};
  if (typeof state !== "object" || state.subject !== subject || state.args !== sha256(args))
    throw invalid(
      "requestState was issued for another tool call or request: send it with the call it came with",
    );
  if (!spend(state.nonce))
    throw invalid("requestState was already used: an answer is good for one retry only");
  const answers: Record<string, Answered> = { ...state.answers };
  for (const [key, { q, method }] of Object.entries(state.asked)) {
    const a = fitAnswer(method, ctx.mcpReq.inputResponses?.[key]);
    if (a !== undefined) answers[key] = { q, a };
  }
  return answers;
}

/** A question's fingerprint: what is asked, so a changed question is asked again. */
export const questionOf = (request: { method: string; params: unknown }) => sha256(request);

export interface RoundOptions {
  /** `tools/call <name>`: what the state is bound to, with `args`. */
  subject: string;
  args: unknown;
  capabilities: ClientCapabilities | undefined;
  /** Route the run's approvals to the client too (it can show a form). */
  approvals: boolean;
}

/**
 * Runs one round of a request that may ask its client (2026-07-28): `run` gets a signal that
 * aborts when the round ends for a question; the round answers its result, or `input_required`.
 */
export async function runInRounds<T>(
  ctx: ServerContext,
  options: RoundOptions,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T | InputRequiredResult> {
  const answers = await answersOf(ctx, options.subject, options.args);
  const stop = new AbortController();
  const onCancel = () => stop.abort(ctx.mcpReq.signal.reason);
  ctx.mcpReq.signal.addEventListener("abort", onCancel, { once: true });
  const pending = new Map<string, { method: ClientMethod; params: Record<string, unknown>; q: string }>();
  let endRound: () => void = () => {};
  const roundEnded = new Promise<"asked">((resolve) => {
    endRound = () => resolve("asked");
  });
  const ask: AskClient = (key, request, signal) => {
    const q = questionOf(request);
    const known = answers[key];
    if (known && known.q === q) return Promise.resolve(known.a);
    pending.set(key, { ...request, q });
    // the questions asked in the same turn (Promise.all) go out together
    if (pending.size === 1) setImmediate(endRound);
    return new Promise((_resolve, reject) => {
      for (const s of [stop.signal, signal])
        s?.addEventListener("abort", () => reject(s.reason), { once: true });
    });
  };
  const client: ClientChannel = channelOf({
    capabilities: options.capabilities,
    log: (level, data, logger) => void ctx.mcpReq.log(level, data, logger).catch(() => {}),
    ask,
  });
  try {
    const running = runWithClient(client, () =>
      options.approvals
        ? runWithApprovalHandler(clientApprovalHandler(client), () => run(stop.signal))
        : run(stop.signal),
    );
    const first = await Promise.race([running.then((result) => ({ result })), roundEnded]);
    if (first !== "asked") return first.result;
    // the run stops at its question (it has not had an answer to act on); no one needs its end
    stop.abort(new DOMException("input needed: asked the client", "AbortError"));
    void running.catch(() => {});
    const asked = Object.fromEntries([...pending].map(([key, p]) => [key, { q: p.q, method: p.method }]));
    return inputRequired({
      inputRequests: Object.fromEntries(
        [...pending].map(([key, p]) => [key, { method: p.method, params: p.params }]),
      ) as never,
      requestState: await codec.mint({
        subject: options.subject,
        args: sha256(options.args),
        answers,
        asked,
        nonce: randomUUID(),
      }),
    });
  } finally {
    ctx.mcpReq.signal.removeEventListener("abort", onCancel);
  }
}
