import type { AgentToolResult, AnyAgentTool } from "@clawtools/core";
import { contentText } from "@clawtools/core/resources";
import type { AgentTool as PiAgentTool } from "@mariozechner/pi-agent-core";

/**
 * A clawtools tool as pi-agent-core runs it. clawtools tools answer failures as `isError`
 * results; pi expects a throw, so an error result is thrown with its text (pi then shows it to
 * the model as a failed tool call).
 */
export function toPiTool(tool: AnyAgentTool): PiAgentTool {
  return {
    name: tool.name,
    label: tool.label ?? tool.name,
    description: tool.description,
    parameters: tool.parameters as PiAgentTool["parameters"],
    async execute(toolCallId, params, signal, onUpdate) {
      const result: AgentToolResult<unknown> = await tool.execute(
        toolCallId,
        params as never,
        signal,
        onUpdate as never,
      );
      if (result.isError)
        throw new Error(
          result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n") || "tool failed",
        );
      // pi-ai takes text and images only: audio (a tts reply) and resources are named in text, never dropped silently
      if (result.content.every((c) => c.type === "text" || c.type === "image")) return result as never;
      const content = result.content.map((c) =>
        c.type === "text" || c.type === "image" ? c : { type: "text" as const, text: contentText(c) },
      );
      return { ...result, content } as never;
    },
  };
}
