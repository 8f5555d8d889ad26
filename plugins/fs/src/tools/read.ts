import {
  type AgentTool,
  type AgentToolResult,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  type FsBridge,
  type FsStat,
  formatSize,
  type ToolContext,
  ToolInputError,
  type TruncationResult,
  Type,
  truncateHead,
} from "@clawtools/core";
import { basename, dirname } from "node:path";
import { distance } from "../edit/hints.js";
import { type FsToolOptions, resolveFsEnv, throwIfAborted } from "../fs-env.js";
import { displayPath, readPathVariants } from "../paths.js";
import { detectImageMime, MAX_IMAGE_SIDE, prepareImage } from "./image.js";
import { lineCounts } from "./line-count-cache.js";
import { checkPathArg } from "./messages.js";
import { readLinePage } from "./read-lines.js";
import { openForRead } from "./read-open.js";

export const readSchema = Type.Object(
  {
    path: Type.String({ description: "Path to the file to read (relative or absolute)" }),
    offset: Type.Optional(Type.Number({ description: "Line number to start reading from (1-indexed)" })),
    limit: Type.Optional(Type.Number({ description: "Maximum number of lines to read" })),
    cursor: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          "Character position within the start line (0-based), to continue a line longer than one page",
      }),
    ),
    optional: Type.Optional(
      Type.Boolean({ description: "When true, a missing file is a plain answer instead of an error" }),
    ),
  },
  { additionalProperties: false },
);

export interface ReadDetails {
  truncation?: TruncationResult;
  /** Where the next page starts, when the output was cut (OpenClaw's continuation). */
  continuation?: { kind: "line"; offset: number } | { kind: "cursor"; offset: number; cursor: number };
  /** `optional: true` and the file does not exist. */
  status?: "not_found";
  path?: string;
  optional?: true;
}

export interface ReadToolOptions extends FsToolOptions {
  /** Downscale images over `imageMaxDimensionPx` or 4.5 MB (default true). */
  autoResizeImages?: boolean;
  /** Longest image side after downscaling (default 1200 px, OpenClaw's DEFAULT_IMAGE_MAX_DIMENSION_PX). */
  imageMaxDimensionPx?: number;
  /** Page budget of one read in bytes (default 50 KB). */
  readMaxBytes?: number;
}

const readDescription = (maxBytes: number) =>
  `Read the contents of a file. Supports text files and images (jpg, png, gif, webp). Images are sent as attachments. For text files, output is truncated to ${DEFAULT_MAX_LINES} lines or ${maxBytes / 1024}KB (whichever is hit first). Use offset/limit for large files, and cursor to continue within a long line. When you need the full file, continue with offset until complete.`;

const textResult = (text: string, details?: ReadDetails): AgentToolResult<ReadDetails | undefined> => ({
  content: [{ type: "text", text }],
  details,
});

/** The longest prefix of `line` within `bytes` UTF-8 bytes that does not split a surrogate pair. */
function prefixWithin(line: string, bytes: number): string {
  let cut = Math.min(line.length, bytes);
  while (cut > 0 && Buffer.byteLength(line.slice(0, cut)) > bytes) cut = Math.floor(cut * 0.9);
  const code = line.charCodeAt(cut - 1);
  if (cut > 0 && code >= 0xd800 && code <= 0xdbff) cut--;
  return line.slice(0, cut);
}

export function createReadTool(
  ctx: ToolContext = {},
  options: ReadToolOptions = {},
): AgentTool<typeof readSchema, ReadDetails | undefined> {
  const env = resolveFsEnv(ctx, options);
  const maxBytes = options.readMaxBytes ?? DEFAULT_MAX_BYTES;
  const maxSide = options.imageMaxDimensionPx ?? MAX_IMAGE_SIDE;

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
    description: readDescription(maxBytes),
    parameters: readSchema,
    async execute(_id, params, signal): Promise<AgentToolResult<ReadDetails | undefined>> {
      const { path, offset, limit, cursor = 0, optional } = params;
      throwIfAborted(signal);
      checkPathArg("path", path);
      if (offset !== undefined && (!Number.isFinite(offset) || offset < 1))
        throw new ToolInputError("Offset must be a line number of at least 1.");
      if (limit !== undefined && (!Number.isFinite(limit) || limit < 1))
        throw new ToolInputError("Limit must be at least 1.");
      if (!Number.isSafeInteger(cursor) || cursor < 0)
        throw new ToolInputError("Cursor must be an integer of at least 0.");
      const resolved = env.resolve(path);
      // warm path: the file opens as spelled, and one descriptor answers everything below
      const opened = await openForRead(env.bridge, resolved);
      try {
        const found = opened
          ? { abs: resolved, stat: opened.stat, head: opened.head, source: opened.source }
          : await locateFile(resolved, path, optional, signal);
        if ("answer" in found) return found.answer;
        return await readOpened(found.abs, found.stat, found.head, found.source, params, signal);
      } finally {
        await opened?.close();
      }
    },
  };

  /** The general path: spelling variants, then stat and first bytes through the bridge. */
  async function locateFile(
    resolved: string,
    path: string,
    optional: boolean | undefined,
    signal: AbortSignal | undefined,
  ): Promise<
    | { answer: AgentToolResult<ReadDetails | undefined> }
    | { abs: string; stat: FsStat; head: Buffer; source: FsBridge }
  > {
    const abs = await locate(resolved);
    const stat = await env.bridge.stat({ filePath: abs });
    const shown = displayPath(env.root, abs);
    if (!stat) {
      if (optional === true)
        return {
          answer: textResult(`Optional file not found: ${path}.`, {
            status: "not_found",
            path,
            optional: true,
          }),
        };
      throw new ToolInputError(`File not found: ${shown}.${await suggestNames(env.bridge, abs)}`);
    }
    if (stat.type === "directory")
      throw new ToolInputError(
        `Read requires a file path, but ${shown} is a directory. Use ls to list it, then read a specific file.`,
      );
    if (stat.type !== "file") throw new ToolInputError(`Read only supports regular files: ${shown}.`);
    return { abs, stat, head: await firstBytes(env.bridge, abs, signal), source: env.bridge };
  }

  async function readOpened(
    abs: string,
    stat: FsStat,
    head: Buffer,
    source: Pick<FsBridge, "readFile" | "readStream">,
    params: { path: string; offset?: number; limit?: number; cursor?: number },
    signal: AbortSignal | undefined,
  ): Promise<AgentToolResult<ReadDetails | undefined>> {
    const { path, offset, limit, cursor = 0 } = params;
    const mime = detectImageMime(head);
    if (mime) {
      const data = await source.readFile({ filePath: abs });
      if (data.length === 0) throw new ToolInputError(`Image file is empty: ${path}`);
      const image =
        options.autoResizeImages === false
          ? { data, mimeType: mime }
          : await prepareImage(data, mime, maxSide);
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
    const known = cursor > 0 ? undefined : lineCounts.get(env.bridge, abs, stat);
    const page = await readLinePage(source, abs, start, want, maxBytes, signal, known, cursor);
    if (known === undefined) lineCounts.set(env.bridge, abs, stat, page.totalLines);
    throwIfAborted(signal);
    const total = page.totalLines;
    const first = start + 1;
    // outcomes OpenClaw answers as normal results: the model reads them and moves on
    if (total === 0) return textResult(`File is empty (${stat.size} bytes).`);
    if (start >= total)
      return textResult(
        `Offset ${offset} is beyond end of file (${total} lines total). Retry with offset <= ${total}.`,
      );
    if (cursor > 0 && cursor >= page.startLineChars)
      return textResult(
        `Cursor ${cursor} is at or beyond the end of line ${first} (${page.startLineChars} characters).${first < total ? ` Use offset=${first + 1} to continue.` : ""}`,
      );
    // the empty string after a final newline is not a line: keep the newline, not a line for it
    const reachesEnd = start + page.lines.length > total;
    const pageLines = reachesEnd ? page.lines.slice(0, total - start) : page.lines;
    const userEnd = limit !== undefined ? Math.min(start + Math.floor(limit), total) : undefined;
    const selectedLines = userEnd !== undefined ? pageLines.slice(0, userEnd - start) : pageLines;
    const selected = selectedLines.join("\n");
    const truncation = truncateHead(selected, { maxBytes });
    const limitPart = limit !== undefined ? `, limit=${Math.floor(limit)}` : "";
    if (truncation.firstLineExceedsLimit) {
      // the first part of a line longer than the page, and where to continue inside it
      const next = (c: number) =>
        `\n\n[Showing part of line ${first} (${formatSize(maxBytes)} limit). Use read with offset=${first}, cursor=${c}${limitPart} to continue.]`;
      const part = prefixWithin(selectedLines[0]!, maxBytes - Buffer.byteLength(next(cursor + maxBytes)));
      const resume = cursor + part.length;
      return textResult(`${part}${next(resume)}`, {
        truncation: {
          ...truncation,
          content: part,
          outputBytes: Buffer.byteLength(part),
          lastLinePartial: true,
        },
        continuation: { kind: "cursor", offset: first, cursor: resume },
      });
    }
    // lines beyond what we kept were counted, not stored: the truncation covers them too
    const moreStored = userEnd === undefined && start + pageLines.length < total;
    if (truncation.truncated || moreStored) {
      const last = first + truncation.outputLines - 1;
      const cap = truncation.truncatedBy === "bytes" ? ` (${formatSize(maxBytes)} limit)` : "";
      const notice = `[Showing lines ${first}-${last} of ${total}${cap}. Use offset=${last + 1} to continue.]`;
      return textResult(`${truncation.content}\n\n${notice}`, {
        truncation: {
          ...truncation,
          truncated: true,
          truncatedBy: truncation.truncatedBy ?? "lines",
          totalLines: total,
        },
        continuation: { kind: "line", offset: last + 1 },
      });
    }
    if (userEnd !== undefined && userEnd < total) {
      const left = total - userEnd;
      return textResult(
        `${truncation.content}\n\n[${left} more line${left === 1 ? "" : "s"} in file. Use offset=${userEnd + 1} to continue.]`,
      );
    }
    return textResult(reachesEnd ? `${truncation.content}\n` : truncation.content);
  }
}

/** OpenClaw 9.6: up to three names in the same directory within 40% edits of the one asked for. */
async function suggestNames(bridge: ReturnType<typeof resolveFsEnv>["bridge"], abs: string): Promise<string> {
  const wanted = basename(abs).toLowerCase();
  if (!bridge.readdir || wanted.length > 255) return "";
  const entries = await bridge.readdir({ filePath: dirname(abs) }).catch(() => []);
  const most = Math.max(1, Math.floor(wanted.length * 0.4));
  const near = entries
    .filter((e) => e.name.length <= 255)
    .map((e) => ({ name: e.name, d: distance(wanted, e.name.toLowerCase()) }))
    .filter(({ d }) => d <= most)
    .sort((a, b) => a.d - b.d || a.name.localeCompare(b.name))
    .slice(0, 3);
  return near.length ? ` Did you mean: ${near.map((n) => n.name).join(", ")}?` : "";
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
