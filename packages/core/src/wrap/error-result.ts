import { redactSecrets, redactValue } from "../safety/redact.js";
import type { AgentToolResult } from "../tool.js";

export interface ToolErrorPayload {
  status: "error";
  tool: string;
  error: string;
}

/** An error as text, with every registered secret redacted (it goes to the model and to logs). */
export function errorMessage(error: unknown): string {
  return redactSecrets(rawErrorMessage(error));
}

function rawErrorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** The result a failed call returns to the model: `{status:"error", tool, error}`, isError. */
export function toolErrorResult(tool: string, error: unknown): AgentToolResult<ToolErrorPayload> {
  const payload: ToolErrorPayload = { status: "error", tool, error: errorMessage(error) };
  return {
    content: [{ type: "text", text: JSON.stringify(payload, null, 2) }],
    details: payload,
    isError: true,
  };
}

/**
 * A result without `content[]` becomes a text result of its JSON. Every registered secret is
 * redacted from the result (content and details): this is the path every tool result takes.
 */
export function coerceToolResult(result: unknown): AgentToolResult<unknown> {
  return redactValue(coerceRaw(result));
}

function coerceRaw(result: unknown): AgentToolResult<unknown> {
  if (result && typeof result === "object" && Array.isArray((result as { content?: unknown }).content)) {
    return result as AgentToolResult<unknown>;
  }
  const text = typeof result === "string" ? result : (JSON.stringify(result, null, 2) ?? String(result));
  return { content: [{ type: "text", text }], details: result };
}
