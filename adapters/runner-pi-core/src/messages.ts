import type { TranscriptMessage } from "@clawtools/core/contracts";
import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { AssistantMessage } from "@earendil-works/pi-ai";

/** An assistant message's text, trimmed. */
export const textOf = (m: AssistantMessage): string =>
  m.content
    .filter((c): c is { type: "text"; text: string } => c.type === "text")
    .map((c) => c.text)
    .join("")
    .trim();

/** The run's last assistant message, if any. */
export function lastAssistant(messages: readonly AgentMessage[]): AssistantMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as AssistantMessage;
    if (m.role === "assistant") return m;
  }
  return undefined;
}

/** Messages as pi-ai takes them: only user, assistant and toolResult, without clawtools' bookkeeping. */
export function toAgentMessages(history: TranscriptMessage[]): AgentMessage[] {
  return history
    .filter((m) => m.role === "user" || m.role === "assistant" || m.role === "toolResult")
    .map(({ internal: _i, ...m }) => m as unknown as AgentMessage);
}
