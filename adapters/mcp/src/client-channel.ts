import {
  type ClientAskOptions,
  ClientCapabilityError,
  type ClientCapability,
  type ClientChannel,
  type ClientLogLevel,
  type ElicitAnswer,
  type SamplingAnswer,
} from "@clawtools/core/client";
import type { ClientCapabilities } from "@modelcontextprotocol/server";
import { supportsFormElicitation } from "./elicit-approval.js";

/** The three questions a server may put to its client, by the capability each needs. */
export const CLIENT_METHODS = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
} as const satisfies Record<string, ClientCapability>;

export type ClientMethod = keyof typeof CLIENT_METHODS;

/** Whether the client declared `capability` (elicitation: in form mode, which a tool's form needs). */
export function declares(
  capabilities: ClientCapabilities | undefined,
  capability: ClientCapability,
): boolean {
  if (capability === "elicitation") return supportsFormElicitation(capabilities);
  const value = capabilities?.[capability];
  return typeof value === "object" && value !== null;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The client's answer when it has the shape `method`'s result has, else undefined (it is asked again). */
export function fitAnswer(method: ClientMethod, answer: unknown): unknown {
  if (!isObject(answer)) return undefined;
  if (method === "elicitation/create") {
    const ok =
      (answer.action === "accept" || answer.action === "decline" || answer.action === "cancel") &&
      (answer.content === undefined || isObject(answer.content));
    return ok ? answer : undefined;
  }
  if (method === "sampling/createMessage") return isObject(answer.content) ? answer : undefined;
  return Array.isArray(answer.roots) && answer.roots.every((r) => isObject(r) && typeof r.uri === "string")
    ? answer
    : undefined;
}

/** How a channel gets an answer: over the wire (2025), from a retry's answers (2026), or from a task. */
export type AskClient = (
  key: string,
  request: { method: ClientMethod; params: Record<string, unknown> },
  signal: AbortSignal | undefined,
) => Promise<unknown>;

export interface ChannelParts {
  capabilities: ClientCapabilities | undefined;
  log: (level: ClientLogLevel, data: unknown, logger?: string) => void;
  ask: AskClient;
  /** Who asks, for the capability error (default "this tool"). */
  who?: string;
}

const BASE_KEYS: Record<ClientMethod, string> = {
  "elicitation/create": "elicit",
  "sampling/createMessage": "sample",
  "roots/list": "roots",
};

/**
 * A `ClientChannel` over one call: checks the client declared what a question needs (fails with
 * ClientCapabilityError before anything is sent), names each question (its `key`, numbered when
 * repeated, so a re-run of the call names them alike), and checks the answer's shape.
 */
export function channelOf(parts: ChannelParts): ClientChannel {
  const seen = new Map<string, number>();
  const keyOf = (method: ClientMethod, options?: ClientAskOptions) => {
    const base = options?.key ?? BASE_KEYS[method];
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  };
  const ask = async (method: ClientMethod, params: Record<string, unknown>, options?: ClientAskOptions) => {
    const capability = CLIENT_METHODS[method];
    if (!declares(parts.capabilities, capability)) throw new ClientCapabilityError(capability, parts.who);
    const key = keyOf(method, options);
    const answer = fitAnswer(method, await parts.ask(key, { method, params }, options?.signal));
    if (answer === undefined)
      throw new Error(`the client's answer to ${key} (${method}) is not a ${method} result`);
    return answer;
  };
  return {
    supports: (capability) => declares(parts.capabilities, capability),
    log: (level, data, logger) => parts.log(level, data, logger),
    elicit: async (form, options) => (await ask("elicitation/create", { ...form }, options)) as ElicitAnswer,
    sample: async (request, options) =>
      (await ask("sampling/createMessage", { ...request }, options)) as SamplingAnswer,
    listRoots: async (options) =>
      ((await ask("roots/list", {}, options)) as { roots: Array<{ uri: string; name?: string }> }).roots,
  };
}
