import type { AgentToolResult, AnyAgentTool } from "@clawtools/core";
import { contentText } from "@clawtools/core/resources";
import type { AgentTool, AgentToolResult as PiToolResult } from "@earendil-works/pi-agent-core";
import type { JsonValue } from "@earendil-works/pi-ai";

type PiContent = PiToolResult["content"][number];

/** `details` as JSON data, when it is JSON (a class instance or a function is not: it stays out). */
function asJson(value: unknown): JsonValue | undefined {
  if (value === undefined) return undefined;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : (JSON.parse(text) as JsonValue);
  } catch {
    // a cycle or a BigInt: the model-facing content still carries the result
    return undefined;
  }
}

/** pi-ai takes text and images only: audio (a tts reply) and resources are named in text, never dropped silently. */
function toPiContent(result: AgentToolResult<unknown>): PiContent[] {
  return (result.content ?? []).map((c) =>
    c.type === "text" || c.type === "image"
      ? (c as PiContent)
      : { type: "text" as const, text: contentText(c) },
  );
}

/** A clawtools result as pi 1.5 takes it: `details` kept, and as `structuredContent` when it is JSON. */
export function toPiResult(result: AgentToolResult<unknown>): PiToolResult<unknown> {
  const structured = asJson(result.details);
  return {
    content: toPiContent(result),
    details: result.details,
    ...(structured !== undefined ? { structuredContent: structured } : {}),
    // pi 1.5 takes a failure as a result (no throw), so the details of a failed call are kept
    ...(result.isError ? { isError: true } : {}),
  };
}

/**
 * A clawtools tool as @earendil-works/pi-agent-core 1.5 runs it: its `details` become the
 * result's `structuredContent` (machine-readable, not sent to the model), a tool that declares an
 * `outputSchema` passes it on, and progress updates are mapped the same way as the final result.
 */
export function toPiCoreTool(tool: AnyAgentTool): AgentTool {
  const outputSchema = (tool as { outputSchema?: object }).outputSchema;
  return {
    name: tool.name,
    label: tool.label ?? tool.name,
    description: tool.description,
    parameters: tool.parameters as AgentTool["parameters"],
    ...(outputSchema ? { outputSchema } : {}),
    async execute(toolCallId, params, signal, onUpdate) {
      const result: AgentToolResult<unknown> = await tool.execute(
        toolCallId,
        params as never,
        signal,
        onUpdate
          ? (((partial: Partial<AgentToolResult<unknown>>) =>
              onUpdate(toPiResult({ content: [], ...partial } as AgentToolResult<unknown>))) as never)
          : undefined,
      );
      return toPiResult(result);
    },
  };
}
