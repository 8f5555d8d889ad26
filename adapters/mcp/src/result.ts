import type { AgentToolResult } from "@clawtools/core";
import type { CallToolResult } from "@modelcontextprotocol/server";

/** How much of one tool result goes back to the client. */
export interface ResultLimits {
  /**
   * Characters of text across a result's text blocks (default 200,000, the exec session output
   * cap). Beyond it the text is cut and a notice says where and how to get the rest.
   */
  maxResultChars?: number;
  /**
   * Bytes of a whole result as sent (default 8 MiB, under the 10 MiB message limit of the MCP
   * SDK's stdio client). Images, audio and structured content that would pass it are left out, with a note.
   */
  maxResultBytes?: number;
}

export const DEFAULT_MAX_RESULT_CHARS = 200_000;
export const DEFAULT_MAX_RESULT_BYTES = 8 * 1024 * 1024;

const number = (n: number) => n.toLocaleString("en-US");

/** The notice appended when a result's text is longer than the server sends. */
export function truncatedResultNotice(shown: number, total: number, limit: number): string {
  return (
    `[Result truncated by the MCP server: showing the first ${number(shown)} of ${number(total)} characters ` +
    `(limit ${number(limit)} per result). To get the rest, ask for less at a time: read with offset/limit, ` +
    "a narrower grep pattern or path, or process log with offset/limit.]"
  );
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** `details` as JSON-safe structured content, or undefined when it is not a plain object or not JSON. */
function structured(details: unknown): { value: Record<string, unknown>; bytes: number } | undefined {
  if (!isPlainObject(details)) return undefined;
  try {
    const json = JSON.stringify(details);
    if (json === undefined) return undefined;
    return { value: JSON.parse(json) as Record<string, unknown>, bytes: Buffer.byteLength(json) };
  } catch {
    return undefined; // bigint, cycles: the text content already carries the answer
  }
}

/** Cuts a string at `max` UTF-16 units without splitting a surrogate pair. */
function cut(text: string, max: number): string {
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/**
 * An AgentTool result as an MCP `CallToolResult`: text, image, audio, resource link and embedded
 * resource blocks, `isError`, and `details`
 * as `structuredContent` when it is a plain object. Text over `maxResultChars` is cut with a
 * notice; images and structured content that would push the result past `maxResultBytes` are
 * left out with a note, so no result is larger than a client can read.
 */
export function toCallToolResult(
  result: AgentToolResult<unknown>,
  limits: ResultLimits = {},
): CallToolResult {
  const maxChars = limits.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
  const maxBytes = limits.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  const totalChars = result.content.reduce((n, b) => n + (b.type === "text" ? b.text.length : 0), 0);
  const content: CallToolResult["content"] = [];
  const notes: string[] = [];
  let chars = 0;
  let bytes = 0;
  for (const block of result.content) {
    if (block.type === "text") {
      if (chars >= maxChars) continue;
      const text = chars + block.text.length > maxChars ? cut(block.text, maxChars - chars) : block.text;
      chars += text.length;
      bytes += Buffer.byteLength(text);
      content.push({ type: "text", text });
      continue;
    }
    if (block.type === "resource_link") {
      content.push({ ...block });
      continue;
    }
    if (block.type === "resource") {
      // an embedded resource counts against the byte limit like an image: left out with a note past it
      const size = Buffer.byteLength(block.resource.text ?? block.resource.blob ?? "");
      if (bytes + size > maxBytes) {
        notes.push(
          `[Embedded resource ${block.resource.uri} (${number(size)} bytes) left out: the result would pass the ` +
            `server's limit of ${number(maxBytes)} bytes per result. Read it with resources/read.]`,
        );
        continue;
      }
      bytes += size;
      content.push({
        type: "resource",
        resource: { ...block.resource },
      } as CallToolResult["content"][number]);
      continue;
    }
    // images and audio (a tts reply) go to the client as MCP image / audio blocks
    const kind = block.type === "audio" ? "Audio" : "Image";
    const size = block.data.length;
    if (bytes + size > maxBytes) {
      // a tool that also links the same media (tts audio, a screenshot) can be read in full there
      const link = result.content.find((b) => b.type === "resource_link" && b.mimeType === block.mimeType);
      const instead =
        link?.type === "resource_link"
          ? `Read it with resources/read ${link.uri}.`
          : `Ask for a ${kind === "Audio" ? "shorter clip" : "smaller image"}.`;
      notes.push(
        `[${kind} (${block.mimeType}, ${number(Math.round((size * 3) / 4))} bytes) left out: the result would pass the ` +
          `server's limit of ${number(maxBytes)} bytes per result. ${instead}]`,
      );
      continue;
    }
    bytes += size;
    content.push({ type: block.type, data: block.data, mimeType: block.mimeType });
  }
  if (totalChars > maxChars) notes.unshift(truncatedResultNotice(chars, totalChars, maxChars));
  for (const note of notes) content.push({ type: "text", text: note });
  const structuredContent = structured(result.details);
  return {
    content,
    ...(structuredContent && bytes + structuredContent.bytes <= maxBytes
      ? { structuredContent: structuredContent.value }
      : {}),
    ...(result.isError ? { isError: true } : {}),
  };
}
