import type { ConformanceModel } from "@clawtools/testing";
import { type ChatRequest, contentText, type Reply, startModelServer } from "../model-server.js";

/** A chat-completions request as the conformance suite's model reads it. */
export function conformanceTurn(request: ChatRequest) {
  const lastUser = request.messages.findLastIndex((m) => m.role === "user");
  return {
    userMessages: () => request.messages.filter((m) => m.role === "user").map((m) => contentText(m.content)),
    toolResults: request.messages
      .slice(lastUser + 1)
      .filter((m) => m.role === "tool")
      .map((m) => contentText(m.content)),
  };
}

/** The loopback OpenAI-compatible model (streamed, or whole when asked), answered by the suite's model. */
export function startConformanceModel(model: ConformanceModel, options: { whole?: boolean } = {}) {
  return startModelServer((request): Promise<Reply> => model.answer(conformanceTurn(request)), options);
}
