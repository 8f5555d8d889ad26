import path from "node:path";
import { fileURLToPath } from "node:url";
import { ToolInputError } from "@clawtools/core";
import {
  guardedFetch,
  isSsrfBlockedError,
  type Lookup,
  openInWorkspace,
  type UrlPolicy,
} from "@clawtools/core/safety";
import type { MediaAttachment } from "./channel.js";

const TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".pdf": "application/pdf",
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".json": "application/json",
  ".csv": "text/csv",
  ".ogg": "audio/ogg",
  ".opus": "audio/ogg",
  ".mp3": "audio/mpeg",
  ".m4a": "audio/mp4",
  ".wav": "audio/wav",
  ".mp4": "video/mp4",
  ".zip": "application/zip",
};

export const typeOf = (filename: string) =>
  TYPES[path.extname(filename).toLowerCase()] ?? "application/octet-stream";

export const DATA_URL_REFUSED =
  "media does not take data: URLs; pass the content as base64 in buffer, with filename and contentType.";

export interface MediaInput {
  media?: string;
  buffer?: string;
  filename?: string;
  contentType?: string;
}

export interface MediaEnv {
  workspaceDir?: string;
  maxBytes: number;
  policy: UrlPolicy;
  lookup?: Lookup;
  signal?: AbortSignal;
}

const tooBig = (what: string, max: number) =>
  new ToolInputError(
    `${what} is larger than the ${Math.round(max / 1024 / 1024)} MB media limit (messaging.mediaMaxMb).`,
  );

/**
 * The attachment a call names, read whole: `buffer` (base64, or a data: URL), else `media` as an
 * http(s) URL (core's URL policy: private addresses refused unless allowed) or a workspace path
 * (core's containment: no link out, no hard link). Nothing is dropped: every failure is an error.
 */
export async function resolveMedia(input: MediaInput, env: MediaEnv): Promise<MediaAttachment | undefined> {
  if (input.buffer !== undefined) {
    let base64 = input.buffer;
    let type = input.contentType;
    const dataUrl = /^data:([^;,]*)(;base64)?,/.exec(base64.slice(0, 200));
    if (dataUrl) {
      if (!dataUrl[2]) throw new ToolInputError("buffer data: URLs must be base64 (data:<type>;base64,…)");
      type ??= dataUrl[1] || undefined;
      base64 = base64.slice(dataUrl[0].length);
    }
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64.replace(/\s+/g, "")))
      throw new ToolInputError("buffer is not valid base64");
    const data = Buffer.from(base64, "base64");
    if (data.length === 0) throw new ToolInputError("buffer is empty");
    if (data.length > env.maxBytes) throw tooBig("buffer", env.maxBytes);
    if (!input.filename) throw new ToolInputError("buffer requires filename");
    return {
      filename: path.basename(input.filename),
      contentType: type ?? typeOf(input.filename),
      data,
      source: `buffer:${input.filename}`,
    };
  }
  const media = input.media?.trim();
  if (!media) return undefined;
  if (/^data:/i.test(media)) throw new ToolInputError(DATA_URL_REFUSED);
  if (/^https?:\/\//i.test(media)) {
    let response: Awaited<ReturnType<typeof guardedFetch>>;
    try {
      response = await guardedFetch(media, {
        policy: env.policy,
        maxBytes: env.maxBytes + 1,
        timeoutMs: 30_000,
        ...(env.signal ? { signal: env.signal } : {}),
        ...(env.lookup ? { lookup: env.lookup } : {}),
      });
    } catch (error) {
      if (isSsrfBlockedError(error))
        throw new ToolInputError(`media URL refused: ${(error as Error).message}`);
      throw new ToolInputError(`media download failed: ${(error as Error).message}`);
    }
    if (response.status >= 400)
      throw new ToolInputError(`media download failed: HTTP ${response.status} for ${media.slice(0, 200)}`);
    if (response.truncated || response.body.length > env.maxBytes)
      throw tooBig(media.slice(0, 200), env.maxBytes);
    const name = input.filename ?? (path.basename(new URL(response.finalUrl).pathname) || "file");
    const header = response.headers["content-type"]?.split(";")[0]?.trim();
    return {
      filename: path.basename(name),
      contentType:
        input.contentType ?? (header && header !== "application/octet-stream" ? header : typeOf(name)),
      data: response.body,
      source: media,
    };
  }
  if (!env.workspaceDir) throw new ToolInputError("media paths need a workspace (context.workspaceDir)");
  const target = /^file:\/\//i.test(media) ? fileURLToPath(media) : media;
  const opened = await openInWorkspace(env.workspaceDir, target, { mode: "read", input: media });
  try {
    if (!opened.stat.isFile()) throw new ToolInputError(`media is not a file: ${media.slice(0, 200)}`);
    if (opened.stat.size > env.maxBytes) throw tooBig(media.slice(0, 200), env.maxBytes);
    const data = await opened.handle.readFile();
    const filename = path.basename(input.filename ?? opened.realPath);
    return { filename, contentType: input.contentType ?? typeOf(filename), data, source: opened.realPath };
  } finally {
    await opened.close();
  }
}
