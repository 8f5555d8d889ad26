import type { ConformanceModel, ConformanceTurn } from "@clawtools/testing";
import type { FakeModelResponder } from "../src/testing/index.js";

interface WireMessage {
  role: string;
  content: unknown;
}

const textOf = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((p) => (typeof p?.text === "string" ? p.text : "")).join("")
      : "";

// what the Gateway wraps a user's text in on the model wire (seen on 2026.9.6)
const STAMP = /^\[[^\]\n]*\d{4}-\d{2}-\d{2} \d{2}:\d{2}[^\]\n]*\]\s*/;
const RUNTIME = /\n\nRuntime: agent=[^\n]*$/;
const CONTEXT = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>";

/**
 * The user's own text of a user message the Gateway sent its model, or undefined for a message
 * of the Gateway's own (its internal-context block): the timestamp prefix and the runtime line
 * come off.
 */
export function userTextOf(message: WireMessage): string | undefined {
  const text = textOf(message.content);
  if (text.startsWith(CONTEXT)) return undefined;
  return text.replace(STAMP, "").replace(RUNTIME, "");
}

/** A chat-completions request as the suite's model reads it: the user's texts, then tool results. */
export function gatewayConformanceTurn(body: Record<string, unknown>): ConformanceTurn {
  const messages = (body.messages ?? []) as WireMessage[];
  const users = messages.flatMap((m, i) => {
    const text = m.role === "user" ? userTextOf(m) : undefined;
    return text === undefined ? [] : [{ i, text }];
  });
  const last = users.at(-1)?.i ?? -1;
  return {
    userMessages: () => users.map((u) => u.text),
    toolResults: messages
      .slice(last + 1)
      .filter((m) => m.role === "tool")
      .map((m) => textOf(m.content)),
  };
}

/** A fake model's responder that answers with the suite's model once the suite hands it over. */
export function conformanceResponder(model: () => ConformanceModel | undefined): FakeModelResponder {
  return async (body) => {
    const current = model();
    if (!current) throw new Error("the conformance model was asked before the suite set it up");
    return current.answer(gatewayConformanceTurn(body));
  };
}
