import {
  type AgentTool,
  type AgentToolResult,
  DEFAULT_MAX_LINES,
  type FsBridge,
  type FsStat,
  type ToolContext,
  ToolInputError,
} from "@clawtools/core";
import { resolveFsEnv, throwIfAborted } from "../fs-env.js";
import { lineDigestOfBytes } from "../stale/line-digest.js";
import { MAX_DIGEST_BYTES, MAX_SEEN_BYTES } from "../stale/seen-files.js";
import { displayPath } from "../paths.js";
import { detectImageMime, MAX_IMAGE_SIDE, prepareImage } from "./image.js";
import { lineCounts } from "./line-count-cache.js";
import { checkPathArg } from "./messages.js";
import { readLinePage } from "./read-lines.js";
import { firstBytes, suggestNames } from "./read-helpers.js";
import { openForRead } from "./read-open.js";
import { pageRead, READ_PAGE_MAX_BYTES } from "./read-page.js";
import { resolveReadTarget } from "./read-resolve.js";
import { type ReadDetails, type ReadToolOptions, readDescription, readSchema } from "./read-schema.js";

export { type ReadDetails, type ReadToolOptions, readSchema } from "./read-schema.js";

// lines one read window holds: a page of 2000 (plus one, to see past it), or four joined pages
const PAGE_LINES = DEFAULT_MAX_LINES + 1;
const PAGES_LINES = 4 * DEFAULT_MAX_LINES + 2;

const textResult = (text: string, details?: ReadDetails): AgentToolResult<ReadDetails | undefined> => ({
  content: [{ type: "text", text }],
  details,
});

export function createReadTool(
  ctx: ToolContext = {},
  options: ReadToolOptions = {},
): AgentTool<typeof readSchema, ReadDetails | undefined> {
  const env = resolveFsEnv(ctx, options);
  const maxBytes = options.readMaxBytes ?? READ_PAGE_MAX_BYTES;
  const maxSide = options.imageMaxDimensionPx ?? MAX_IMAGE_SIDE;

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
        const answer = await readOpened(found, params, signal);
        return "note" in found && found.note ? withNote(answer, found.note) : answer;
      } finally {
        // the answer does not wait for the close (one thread-pool trip less per read); closing a
        // descriptor opened read-only reports nothing the caller could act on
        opened?.close().catch(() => {});
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
    | { abs: string; stat: FsStat; head: Buffer; source: FsBridge; note?: string }
  > {
    const { abs, note } = await resolveReadTarget(env.bridge, resolved);
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
    const head = await firstBytes(env.bridge, abs, signal);
    return { abs, stat, head, source: env.bridge, ...(note ? { note } : {}) };
  }

  async function readOpened(
    file: {
      abs: string;
      stat: FsStat;
      head: Buffer;
      source: Pick<FsBridge, "readFile" | "readStream">;
      note?: string;
    },
    params: { path: string; offset?: number; limit?: number; cursor?: number },
    signal: AbortSignal | undefined,
  ): Promise<AgentToolResult<ReadDetails | undefined>> {
    const { path, offset, limit, cursor = 0 } = params;
    const { abs, stat, head, source } = file;
    // the note goes before the answer, so the page leaves it room (9.6: the page budget less its bytes)
    const noteBytes = file.note ? Buffer.byteLength(`${file.note}\n`) : 0;
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

    // what the model sees is remembered for the stale guard (read now: a later change is not what it saw)
    // (a big file: the digest of its lines, taken in the background once the page is read, so
    // its hashing never runs between the page's own reads; the bytes are still read now)
    // (a file the first chunk already holds whole is not read again)
    let pageDone = () => {};
    const paged = new Promise<void>((resolve) => {
      pageDone = resolve;
    });
    env.seen.set(
      abs,
      stat.size <= MAX_SEEN_BYTES
        ? (stat.size > 0 && head.length === stat.size
            ? head
            : await source.readFile({ filePath: abs })
          ).toString("utf8")
        : stat.size <= MAX_DIGEST_BYTES
          ? Promise.all([env.bridge.readFile({ filePath: abs }), paged]).then(([data]) =>
              lineDigestOfBytes(data),
            )
          : undefined,
    );
    const start = offset !== undefined ? Math.floor(offset) - 1 : 0;
    const wanted = limit !== undefined ? Math.max(1, Math.floor(limit)) : undefined;
    // enough lines for what one call can hold: one explicit page, or four joined pages
    const want = wanted !== undefined ? Math.min(wanted, PAGE_LINES) : PAGES_LINES;
    const known = cursor > 0 ? undefined : lineCounts.get(env.bridge, abs, stat);
    const page = await readLinePage(source, abs, start, want, maxBytes, signal, known, cursor).finally(
      pageDone,
    );
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
    if (page.cursorSplitsPair)
      throw new ToolInputError(
        `Cursor ${cursor} splits a UTF-16 surrogate pair; retry with cursor=${cursor - 1} or cursor=${cursor + 1}.`,
      );
    const answer = pageRead(
      {
        text: page.lines.join("\n"),
        complete: page.complete,
        totalLines: total,
        startLineChars: page.startLineChars,
      },
      first,
      cursor,
      wanted,
      maxBytes,
      noteBytes,
    );
    const text = `${answer.shown}${answer.notice}`;
    if (!answer.continuation) return textResult(text);
    // a page cut short says where to go on; "N more lines" after an explicit limit needs no details
    if (!answer.truncatedBy || (wanted !== undefined && answer.notice.includes(" more line")))
      return textResult(text);
    const outputBytes = Buffer.byteLength(answer.content);
    return textResult(text, {
      truncation: {
        content: answer.content,
        truncated: true,
        truncatedBy: answer.truncatedBy,
        totalLines: total,
        totalBytes: stat.size,
        outputLines: answer.outputLines,
        outputBytes,
        lastLinePartial: answer.continuation.kind === "cursor",
        firstLineExceedsLimit: false,
        maxLines: DEFAULT_MAX_LINES,
        maxBytes,
      },
      continuation: answer.continuation,
    });
  }
}

/** The result with `note` on a line before its first text block (OpenClaw 9.6's resolved-name note). */
function withNote(
  result: AgentToolResult<ReadDetails | undefined>,
  note: string,
): AgentToolResult<ReadDetails | undefined> {
  const [first, ...rest] = result.content;
  if (first?.type !== "text") return result;
  return { ...result, content: [{ ...first, text: `${note}\n${first.text}` }, ...rest] };
}
