import { ClawtoolsError } from "@clawtools/core";
import { redactSecrets } from "@clawtools/core/safety";
import { type AssistantMessage, complete, type ImageContent, type TextContent } from "@mariozechner/pi-ai";
import type { ResolvedModel } from "./resolve.js";

export interface CompleteTextOptions {
  systemPrompt?: string;
  /** The user turn: text and images, in order. */
  content: Array<TextContent | ImageContent>;
  maxTokens?: number;
  signal?: AbortSignal;
}

const MODEL_CALL_ERROR = Symbol.for("clawtools.error.ModelCallError");

/** The provider answered with an error (or was aborted); the message is the provider's, secrets redacted. */
export class ModelCallError extends ClawtoolsError {
  static override readonly marker: symbol = MODEL_CALL_ERROR;
  readonly [MODEL_CALL_ERROR] = true;
  override get code(): string {
    return "CLAWTOOLS_MODEL_CALL";
  }
  override name = "ModelCallError";
}

/** Whether `error` is a ModelCallError from any copy of this package (its brand, not `instanceof`). */
export function isModelCallError(error: unknown): error is ModelCallError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[MODEL_CALL_ERROR] === true
  );
}

/**
 * A failed model call's text for results and logs: which provider, endpoint and model answered,
 * so the reader knows what to fix; the provider's own text follows with the key taken out.
 */
export function modelFailure(resolved: ResolvedModel, reason: string): string {
  const { provider, baseUrl, id } = resolved.model;
  const where = `provider ${provider}, base URL ${baseUrl || "(the provider's default)"}, model ${id}`;
  return `Model call failed (${where}): ${redactSecrets(reason, [resolved.apiKey])}`;
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
      modelFailure(resolved, message.errorMessage ?? `model call ${message.stopReason}`),
    );
  const text = message.content
    .filter((c): c is TextContent => c.type === "text")
    .map((c) => c.text)
    .join("")
    .trim();
  return { text, message };
}
