import {
  type AgentTool,
  type AgentToolResult,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  formatSize,
  type ToolContext,
  ToolInputError,
  type TruncationResult,
  Type,
  truncateHead,
} from "@clawtools/core";
import { type FsToolOptions, resolveFsEnv, throwIfAborted } from "../fs-env.js";
import { readPathVariants } from "../paths.js";
import { detectImageMime, prepareImage } from "./image.js";
import { lineCounts } from "./line-count-cache.js";
import { readLinePage } from "./read-lines.js";

export const readSchema = Type.Object({
  path: Type.String({ description: "Path to the file to read (relative or absolute)" }),
  offset: Type.Optional(Type.Number({ description: "Line number to start reading from (1-indexed)" })),
  limit: Type.Optional(Type.Number({ description: "Maximum number of lines to read" })),
});

export interface ReadDetails {
  truncation?: TruncationResult;
}

export interface ReadToolOptions extends FsToolOptions {
  /** Downscale images over 2000×2000 px or 4.5 MB (default true). */
  autoResizeImages?: boolean;
}

const DESCRIPTION = `Read the contents of a file. Supports text files and images (jpg, png, gif, webp). Images are sent as attachments. For text files, output is truncated to ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first). Use offset/limit for large files. When you need the full file, continue with offset until complete.`;

export function createReadTool(
  ctx: ToolContext = {},
  options: ReadToolOptions = {},
): AgentTool<typeof readSchema, ReadDetails | undefined> {
  const env = resolveFsEnv(ctx, options);

  /** The first spelling that exists (macOS screenshot, NFD, curly quote), else the path as given. */
  const locate = async (abs: string) => {
    for (const candidate of readPathVariants(abs)) {
      if (await env.bridge.stat({ filePath: candidate }).catch(() => null)) return candidate;
    }
    return abs;
  };

  return {
    name: "read",
    label: "read",
    description: DESCRIPTION,
    parameters: readSchema,
    async execute(_id, { path, offset, limit }, signal): Promise<AgentToolResult<ReadDetails | undefined>> {
      throwIfAborted(signal);
      const abs = await locate(env.resolve(path));
      const stat = await env.bridge.stat({ filePath: abs });
      if (!stat) throw new ToolInputError(`ENOENT: no such file or directory, open '${abs}'`);
      if (stat.type === "directory")
        throw new ToolInputError(
          `EISDIR: illegal operation on a directory, read '${abs}'. Use ls to list a directory.`,
        );
      if (offset !== undefined && (!Number.isFinite(offset) || offset < 1))
        throw new ToolInputError("offset must be a line number ≥ 1");
      if (limit !== undefined && (!Number.isFinite(limit) || limit < 1))
        throw new ToolInputError("limit must be ≥ 1");

      const head = await firstBytes(env.bridge, abs, signal);
      const mime = detectImageMime(head);
      if (mime) {
        const data = await env.bridge.readFile({ filePath: abs });
        if (data.length === 0) throw new ToolInputError(`Image file is empty: ${path}`);
        const image =
          options.autoResizeImages === false ? { data, mimeType: mime } : await prepareImage(data, mime);
        const text = `Read image file [${image.mimeType}]${"note" in image && image.note ? `\n${image.note}` : ""}`;
        return {
          content: [
            { type: "text", text },
            { type: "image", data: image.data.toString("base64"), mimeType: image.mimeType },
          ],
          details: undefined,
        };
      }

      const start = offset !== undefined ? Math.floor(offset) - 1 : 0;
      const want = limit !== undefined ? Math.min(Math.floor(limit), DEFAULT_MAX_LINES) : DEFAULT_MAX_LINES;
      const known = lineCounts.get(env.bridge, abs, stat);
      const page = await readLinePage(env.bridge, abs, start, want, DEFAULT_MAX_BYTES, signal, known);
      if (known === undefined) lineCounts.set(env.bridge, abs, stat, page.totalLines);
      throwIfAborted(signal);
      if (start >= page.totalLines) {
        throw new ToolInputError(`Offset ${offset} is beyond end of file (${page.totalLines} lines total)`);
      }
      const userEnd = limit !== undefined ? Math.min(start + Math.floor(limit), page.totalLines) : undefined;
      const selected = (userEnd !== undefined ? page.lines.slice(0, userEnd - start) : page.lines).join("\n");
      const truncation = truncateHead(selected);
      const first = start + 1;
      if (truncation.firstLineExceedsLimit) {
        const text = `[Line ${first} is ${formatSize(page.startLineBytes)}, exceeds ${formatSize(DEFAULT_MAX_BYTES)} limit. Use bash: sed -n '${first}p' ${path} | head -c ${DEFAULT_MAX_BYTES}]`;
        return { content: [{ type: "text", text }], details: { truncation } };
      }
      // lines beyond what we kept were counted, not stored: the truncation covers them too
      const moreStored = userEnd === undefined && start + page.lines.length < page.totalLines;
      if (truncation.truncated || moreStored) {
        const last = first + truncation.outputLines - 1;
        const cap = truncation.truncatedBy === "bytes" ? ` (${formatSize(DEFAULT_MAX_BYTES)} limit)` : "";
        const notice = `[Showing lines ${first}-${last} of ${page.totalLines}${cap}. Use offset=${last + 1} to continue.]`;
        return {
          content: [{ type: "text", text: `${truncation.content}\n\n${notice}` }],
          details: {
            truncation: {
              ...truncation,
              truncated: true,
              truncatedBy: truncation.truncatedBy ?? "lines",
              totalLines: page.totalLines,
            },
          },
        };
      }
      if (userEnd !== undefined && userEnd < page.totalLines) {
        const notice = `[${page.totalLines - userEnd} more lines in file. Use offset=${userEnd + 1} to continue.]`;
        return {
          content: [{ type: "text", text: `${truncation.content}\n\n${notice}` }],
          details: undefined,
        };
      }
      return { content: [{ type: "text", text: truncation.content }], details: undefined };
    },
  };
}

async function firstBytes(
  bridge: ReturnType<typeof resolveFsEnv>["bridge"],
  filePath: string,
  signal?: AbortSignal,
) {
  if (!bridge.readStream) return (await bridge.readFile({ filePath })).subarray(0, 16);
  for await (const chunk of bridge.readStream({ filePath, ...(signal ? { signal } : {}) }))
    return chunk.subarray(0, 16);
  return Buffer.alloc(0);
}
