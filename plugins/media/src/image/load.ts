import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ToolInputError, ClawtoolsError } from "@clawtools/core";
import { guardedFetch, isSsrfBlockedError, openInWorkspace, type UrlPolicy } from "@clawtools/core/safety";

export interface LoadedImage {
  /** The reference as the model gave it. */
  ref: string;
  data: Buffer;
  mimeType: string;
}

export interface LoadEnv {
  workspaceDir?: string;
  maxBytes: number;
  policy: UrlPolicy;
  sandboxed?: boolean;
  signal?: AbortSignal;
}

const UNSUPPORTED_REFERENCE = Symbol.for("clawtools.error.UnsupportedReference");

/** A reference the tool cannot read; the tool answers it as a normal result, as OpenClaw does. */
export class UnsupportedReference extends ClawtoolsError {
  static override readonly marker: symbol = UNSUPPORTED_REFERENCE;
  readonly [UNSUPPORTED_REFERENCE] = true;
  override get code(): string {
    return "CLAWTOOLS_UNSUPPORTED_REFERENCE";
  }
  constructor(readonly image: string) {
    super(
      `Unsupported image reference: ${image.slice(0, 200)}. Use a file path, a file:// URL, a data: URL, or an http(s) URL.`,
    );
  }
}

/** Whether `error` is an UnsupportedReference from any copy of this package (its brand, not `instanceof`). */
export function isUnsupportedReference(error: unknown): error is UnsupportedReference {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[UNSUPPORTED_REFERENCE] === true
  );
}

/** The image type from its first bytes (never from a name or a header someone else chose). */
export function sniffImage(data: Buffer): string | undefined {
  if (
    data.length >= 8 &&
    data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return "image/png";
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return "image/jpeg";
  if (data.length >= 6 && /^GIF8[79]a$/.test(data.subarray(0, 6).toString("latin1"))) return "image/gif";
  if (
    data.length >= 12 &&
    data.subarray(0, 4).toString("latin1") === "RIFF" &&
    data.subarray(8, 12).toString("latin1") === "WEBP"
  )
    return "image/webp";
  return undefined;
}

const tooLarge = (ref: string, max: number) =>
  new ToolInputError(
    `Image too large: ${ref.slice(0, 200)} is over ${(max / 1024 / 1024).toFixed(1)} MB (maxBytesMb).`,
  );

async function readBytes(ref: string, env: LoadEnv): Promise<Buffer> {
  if (/^data:/i.test(ref)) {
    const match = /^data:([^;,]*)(;base64)?,/i.exec(ref.slice(0, 300));
    if (!match?.[2]) throw new UnsupportedReference(ref);
    const data = Buffer.from(ref.slice(match[0].length), "base64");
    if (data.length > env.maxBytes) throw tooLarge("data: URL", env.maxBytes);
    return data;
  }
  if (/^https?:\/\//i.test(ref)) {
    if (env.sandboxed) throw new ToolInputError("Sandboxed image tool does not allow remote URLs.");
    try {
      const response = await guardedFetch(ref, {
        policy: env.policy,
        maxBytes: env.maxBytes + 1,
        timeoutMs: 30_000,
        ...(env.signal ? { signal: env.signal } : {}),
      });
      if (response.status >= 400)
        throw new ToolInputError(`Image download failed: HTTP ${response.status} for ${ref.slice(0, 200)}`);
      if (response.truncated || response.body.length > env.maxBytes) throw tooLarge(ref, env.maxBytes);
      return response.body;
    } catch (error) {
      if (isSsrfBlockedError(error))
        throw new ToolInputError(`Image URL refused: ${(error as Error).message}`);
      throw error;
    }
  }
  let file = ref;
  if (/^file:\/\//i.test(ref)) file = fileURLToPath(ref);
  else if (/^[a-z][a-z0-9+.-]*:/i.test(ref) && !/^[a-z]:[\\/]/i.test(ref))
    throw new UnsupportedReference(ref);
  if (file === "~" || file.startsWith("~/")) file = path.join(os.homedir(), file.slice(1));
  if (!env.workspaceDir) throw new ToolInputError("image paths need a workspace (context.workspaceDir)");
  const opened = await openInWorkspace(env.workspaceDir, file, { mode: "read", input: ref });
  try {
    if (!opened.stat.isFile()) throw new ToolInputError(`Not a file: ${ref.slice(0, 200)}`);
    if (opened.stat.size > env.maxBytes) throw tooLarge(ref, env.maxBytes);
    return await opened.handle.readFile();
  } finally {
    await opened.close();
  }
}

/** Reads one reference (path through core's containment, file://, data:, http(s) through the URL policy). */
export async function loadImage(ref: string, env: LoadEnv): Promise<LoadedImage> {
  const data = await readBytes(ref, env);
  const mimeType = sniffImage(data);
  if (!mimeType) {
    const kind = /^data:([^;,]*)/i.exec(ref)?.[1] || "unknown";
    throw new ToolInputError(
      `Unsupported media type: ${kind === "unknown" ? "not an image (png, jpeg, gif or webp)" : kind}`,
    );
  }
  return { ref, data, mimeType };
}
