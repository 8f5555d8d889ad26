import { redactSecrets } from "@clawtools/core";
import { type AssistantMessage, complete, type ImageContent, type TextContent } from "@mariozechner/pi-ai";
import type { ResolvedModel } from "./resolve.js";

export interface CompleteTextOptions {
  systemPrompt?: string;
  /** The user turn: text and images, in order. */
  content: Array<TextContent | ImageContent>;
  maxTokens?: number;
  signal?: AbortSignal;
}

/** The provider answered with an error (or was aborted); the message is the provider's, secrets redacted. */
export class ModelCallError extends Error {
  override name = "ModelCallError";
}

/** One non-tool completion: the model's text answer (thinking left out). */
export async function completeText(
  resolved: ResolvedModel,
  options: CompleteTextOptions,
): Promise<{ text: string; message: AssistantMessage }> {
  const message = await complete(
    resolved.model,
    {
      ...(options.systemPrompt ? { systemPrompt: options.systemPrompt } : {}),
      messages: [{ role: "user", content: options.content, timestamp: Date.now() }],
    },
    {
      ...(resolved.apiKey ? { apiKey: resolved.apiKey } : { apiKey: "unset" }),
      ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  if (message.stopReason === "error" || message.stopReason === "aborted")
    throw new ModelCallError(
      redactSecrets(message.errorMessage ?? `model call ${message.stopReason}`, [resolved.apiKey]),
    );
  const text = message.content
    .filter((c): c is TextContent => c.type === "text")
    .map((c) => c.text)
    .join("")
    .trim();
  return { text, message };
}
