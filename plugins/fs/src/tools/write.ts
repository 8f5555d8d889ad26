import path from "node:path";
import { type AgentTool, type ToolContext, ToolInputError, Type } from "@clawtools/core";
import { isNodeBridge } from "../bridge/node-bridge.js";
import { type FsToolOptions, resolveFsEnv, throwIfAborted } from "../fs-env.js";
import { unchangedSince } from "../stale/judge.js";
import { withLoopNote } from "../stale/region.js";

export const writeSchema = Type.Object(
  {
    path: Type.String({ description: "Path to the file to write (relative or absolute)" }),
    content: Type.String({ description: "Content to write to the file" }),
    overwrite: Type.Optional(
      Type.Boolean({
        description:
          "Replace the file even though it changed on disk since this session read it (default false: refused)",
      }),
    ),
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
    async execute(_id, { path: input, content, overwrite }, signal) {
      throwIfAborted(signal);
      const abs = env.resolve(input);
      return env.withWriteLock([abs], async () => {
        throwIfAborted(signal);
        // a file this session read that changed on disk since is not replaced blindly; a file it
        // never read is written as always (OpenClaw)
        const then = overwrite ? undefined : await env.seen.get(abs);
        let read: Buffer | undefined;
        if (then !== undefined) {
          // one verified read; only when it fails is the path looked at (a file that cannot be
          // read fails the same way; anything else, or nothing, has nothing to guard)
          read = await env.bridge.readFile({ filePath: abs }).catch(async (error: unknown) => {
            if ((await env.bridge.stat({ filePath: abs }))?.type === "file") throw error;
            return undefined;
          });
          const now = read?.toString("utf8");
          if (now !== undefined && !unchangedSince(then, now)) {
            const message = `${input} changed on disk since this session last read it; writing would discard those changes. Read it again and write from what it holds now, or pass overwrite: true to replace it.`;
            throw new ToolInputError(withLoopNote(message, env.seen.refused(message)));
          }
        }
        // the local bridge creates missing parents within its own verified walk
        if (!isNodeBridge(env.bridge)) await env.bridge.mkdirp({ filePath: path.dirname(abs) });
        // encoded once for the write and the journal
        const data = Buffer.from(content);
        await env.journalled(
          "write",
          [abs],
          () => env.bridge.writeFile({ filePath: abs, data }),
          new Map([[abs, { ...(read ? { before: read } : {}), after: data }]]),
        );
        env.seen.set(abs, content);
        // pi reports the string length (UTF-16 units), kept for notice compatibility
        return {
          content: [{ type: "text", text: `Successfully wrote ${content.length} bytes to ${input}` }],
          details: undefined,
        };
      });
    },
  };
}
