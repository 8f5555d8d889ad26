import { type AgentToolResult, type AnyAgentTool, ClawtoolsError } from "@clawtools/core";
import { contentText } from "@clawtools/core/resources";
import { toolInputSchema } from "@clawtools/core/providers";
import { type JSONValue, jsonSchema, type Tool, type ToolSet } from "ai";

type ModelOutput =
  | { type: "text"; value: string }
  | { type: "json"; value: JSONValue }
  | {
      type: "content";
      value: Array<{ type: "text"; text: string } | { type: "image-data"; data: string; mediaType: string }>;
    };

const textOf = (result: AgentToolResult<unknown>) =>
  result.content
    .map((block) => (block.type === "text" ? block.text : ""))
    .filter(Boolean)
    .join("\n");

const TOOL_ERROR = Symbol.for("clawtools.error.ClawtoolsToolError");

/** Thrown into the AI SDK for a clawtools error result: the model sees its text as the tool error. */
export class ClawtoolsToolError extends ClawtoolsError {
  static override readonly marker: symbol = TOOL_ERROR;
  readonly [TOOL_ERROR] = true;
  override get code(): string {
    return "CLAWTOOLS_TOOL_ERROR";
  }
  constructor(
    readonly toolName: string,
    readonly result: AgentToolResult<unknown>,
  ) {
    super(textOf(result) || `${toolName} failed`);
    this.name = "ClawtoolsToolError";
  }

  /** The tool's own text: AI SDK 7 sends a thrown tool error to the model as `String(error)`. */
  override toString(): string {
    return this.message;
  }
}

/** Whether `error` is a ClawtoolsToolError from any copy of this package (its brand, not `instanceof`). */
export function isClawtoolsToolError(error: unknown): error is ClawtoolsToolError {
  return (
    typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[TOOL_ERROR] === true
  );
}

/**
 * A clawtools result as the model reads it: one text block as text, text and images as
 * content parts, a result with no content but details as JSON.
 */
export function toModelOutput(result: AgentToolResult<unknown>): ModelOutput {
  const blocks = result.content ?? [];
  if (blocks.length === 0) return { type: "json", value: (result.details ?? null) as JSONValue };
  if (blocks.every((b) => b.type === "text")) return { type: "text", value: textOf(result) };
  return {
    type: "content",
    value: blocks.map((b) =>
      b.type === "image"
        ? { type: "image-data" as const, data: b.data, mediaType: b.mimeType }
        : // audio (a tts reply) and resource links are named, an embedded text resource is its text
          { type: "text" as const, text: contentText(b) },
    ),
  };
}

export interface ToAiSdkToolsOptions {
  /** Progress updates a tool reports while it runs (`onUpdate`), by tool call. */
  onUpdate?: (toolCallId: string, toolName: string, partial: Partial<AgentToolResult<unknown>>) => void;
}

/**
 * clawtools tools as a Vercel AI SDK `ToolSet`: each tool's input schema (the same one
 * `createToolset` shows every provider) through `jsonSchema()`, the call's abort signal passed on,
 * results mapped to text / content / JSON for the model, and an error result (`isError`) thrown as
 * a `ClawtoolsToolError` so the SDK reports a tool error with the tool's own message.
 */
export function toAiSdkTools(tools: readonly AnyAgentTool[], options: ToAiSdkToolsOptions = {}): ToolSet {
  const set: ToolSet = {};
  for (const t of tools) {
    // a plain Tool object (what `tool()` returns): its type arguments differ between AI SDK 6 and 7
    const entry: Tool<Record<string, unknown>, AgentToolResult<unknown>> = {
      description: t.description,
      inputSchema: jsonSchema<Record<string, unknown>>(toolInputSchema(t.parameters) as never),
      execute: async (input, { toolCallId, abortSignal }) => {
        const result = (await t.execute(
          toolCallId,
          input as never,
          abortSignal,
          options.onUpdate
            ? (partial: Partial<AgentToolResult<unknown>>) => options.onUpdate!(toolCallId, t.name, partial)
            : undefined,
        )) as AgentToolResult<unknown>;
        if (result.isError) throw new ClawtoolsToolError(t.name, result);
        return result;
      },
      toModelOutput: ({ output }) => toModelOutput(output),
    };
    set[t.name] = entry;
  }
  return set;
}
