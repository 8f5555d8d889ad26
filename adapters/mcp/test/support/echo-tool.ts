// The `echo` tool several serving tests call: it answers its text, with the text's length in details.
import { type AnyAgentTool, Type } from "@clawtools/core";

export function echoTool(
  description = "Echoes its text",
  extraDetails: Record<string, unknown> = {},
): AnyAgentTool {
  return {
    name: "echo",
    label: "Echo",
    description,
    parameters: Type.Object({ text: Type.String() }),
    execute: async (_id, p) => ({
      content: [{ type: "text", text: (p as { text: string }).text }],
      details: { length: (p as { text: string }).text.length, ...extraDetails },
    }),
  };
}
