import type { MessageBlock, TranscriptMessage } from "@clawtools/core/contracts";
import type { AssistantContent, ModelMessage, StepResult, ToolSet } from "ai";

type AssistantPart = Exclude<AssistantContent, string>[number];

const blocksOf = (content: TranscriptMessage["content"]): MessageBlock[] =>
  typeof content === "string" ? [{ type: "text", text: content }] : content;
const textOf = (content: TranscriptMessage["content"]) =>
  blocksOf(content)
    .map((b) => (b.type === "text" ? b.text : ""))
    .join("");

/** A session's stored messages (pi's format) as AI SDK model messages. */
export function toModelMessages(history: TranscriptMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const m of history) {
    if (m.role === "user") out.push({ role: "user", content: textOf(m.content) });
    else if (m.role === "assistant") {
      const parts = blocksOf(m.content).flatMap((b): AssistantPart[] =>
        b.type === "text"
          ? b.text
            ? [{ type: "text", text: b.text }]
            : []
          : b.type === "toolCall"
            ? [{ type: "tool-call", toolCallId: b.id, toolName: b.name, input: b.arguments }]
            : [],
      );
      if (parts.length > 0) out.push({ role: "assistant", content: parts });
    } else if (m.role === "toolResult" && m.toolCallId && m.toolName)
      out.push({
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: m.toolCallId,
            toolName: m.toolName,
            output: m.isError
              ? { type: "error-text", value: textOf(m.content) }
              : { type: "text", value: textOf(m.content) },
          },
        ],
      });
  }
  return out;
}

const resultText = (output: unknown): string => {
  const o = output as { content?: Array<{ type: string; text?: string }> } | undefined;
  if (o && Array.isArray(o.content))
    return o.content
      .map((b) => (b.type === "text" ? (b.text ?? "") : ""))
      .filter(Boolean)
      .join("\n");
  return typeof output === "string" ? output : JSON.stringify(output ?? null);
};

/** One finished step (the assistant's text and tool calls, then each tool's result) as stored messages. */
export function stepMessages(step: StepResult<ToolSet>, model: string): TranscriptMessage[] {
  const now = Date.now();
  const blocks: MessageBlock[] = [];
  if (step.text) blocks.push({ type: "text", text: step.text });
  for (const call of step.toolCalls)
    blocks.push({
      type: "toolCall",
      id: call.toolCallId,
      name: call.toolName,
      arguments: (call.input ?? {}) as Record<string, unknown>,
    });
  const messages: TranscriptMessage[] = [
    {
      role: "assistant",
      content: blocks,
      timestamp: now,
      model,
      stopReason: step.finishReason === "tool-calls" ? "toolUse" : step.finishReason,
      usage: { input: step.usage.inputTokens ?? 0, output: step.usage.outputTokens ?? 0 },
    },
  ];
  for (const part of step.content) {
    if (part.type === "tool-result")
      messages.push({
        role: "toolResult",
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        content: [{ type: "text", text: resultText(part.output) }],
        isError: false,
        timestamp: now,
      });
    else if (part.type === "tool-error")
      messages.push({
        role: "toolResult",
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        content: [
          { type: "text", text: part.error instanceof Error ? part.error.message : String(part.error) },
        ],
        isError: true,
        timestamp: now,
      });
  }
  return messages;
}
