import path from "node:path";
import { type AgentTool, type ToolContext, Type } from "@clawtools/core";
import { isNodeBridge } from "../bridge/node-bridge.js";
import { type FsToolOptions, resolveFsEnv, throwIfAborted } from "../fs-env.js";

export const writeSchema = Type.Object(
  {
    path: Type.String({ description: "Path to the file to write (relative or absolute)" }),
    content: Type.String({ description: "Content to write to the file" }),
  },
  { additionalProperties: false },
);

export type WriteToolOptions = FsToolOptions;

export function createWriteTool(
  ctx: ToolContext = {},
  options: WriteToolOptions = {},
): AgentTool<typeof writeSchema, undefined> {
  const env = resolveFsEnv(ctx, options);
  return {
    name: "write",
    label: "write",
    description:
      "Write content to a file. Creates the file if it doesn't exist, overwrites if it does. Automatically creates parent directories.",
    parameters: writeSchema,
    async execute(_id, { path: input, content }, signal) {
      throwIfAborted(signal);
      const abs = env.resolve(input);
      return env.withWriteLock([abs], async () => {
        throwIfAborted(signal);
        // the local bridge creates missing parents within its own verified walk
        if (!isNodeBridge(env.bridge)) await env.bridge.mkdirp({ filePath: path.dirname(abs) });
        await env.bridge.writeFile({ filePath: abs, data: content });
        // pi reports the string length (UTF-16 units), kept for notice compatibility
        return {
          content: [{ type: "text", text: `Successfully wrote ${content.length} bytes to ${input}` }],
          details: undefined,
        };
      });
    },
  };
}
