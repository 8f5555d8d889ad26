import { openInWorkspace, resolveInWorkspace, withWriteLock, writeFileAtomic } from "@clawtools/core/safety";
import { AcpRpcError } from "./connection.js";

/** A permission option as the agent offers it (ACP `PermissionOption`). */
export interface PermissionOption {
  optionId: string;
  name: string;
  kind: "allow_once" | "allow_always" | "reject_once" | "reject_always" | string;
}

/** What the agent asks permission for (`session/request_permission` params). */
export interface PermissionRequest {
  sessionId: string;
  toolCall: { toolCallId: string; title?: string; kind?: string; rawInput?: unknown; [key: string]: unknown };
  options: PermissionOption[];
}

/**
 * How permission requests are answered: `deny` (default: the offered `reject_once`, else
 * "cancelled"), `allow` (the offered `allow_once`, else "cancelled"; never an `*_always` option,
 * which the agent would remember), or a function deciding per request.
 */
export type PermissionPolicy =
  | "deny"
  | "allow"
  | ((
      request: PermissionRequest,
    ) => "allow" | "deny" | { optionId: string } | Promise<"allow" | "deny" | { optionId: string }>);

export type PermissionOutcome = { outcome: "cancelled" } | { outcome: "selected"; optionId: string };

/** The answer to a permission request under `policy`. */
export async function decidePermission(
  policy: PermissionPolicy,
  request: PermissionRequest,
): Promise<PermissionOutcome> {
  const decision = typeof policy === "function" ? await policy(request) : policy;
  if (typeof decision === "object") {
    return request.options.some((o) => o.optionId === decision.optionId)
      ? { outcome: "selected", optionId: decision.optionId }
      : { outcome: "cancelled" };
  }
  const kind = decision === "allow" ? "allow_once" : "reject_once";
  const option = request.options.find((o) => o.kind === kind);
  return option ? { outcome: "selected", optionId: option.optionId } : { outcome: "cancelled" };
}

/** Checks the shape of `session/request_permission` params (JSON-RPC "Invalid params" otherwise). */
export function parsePermissionRequest(params: unknown): PermissionRequest {
  const p = params as Partial<PermissionRequest> | undefined;
  if (
    !p ||
    typeof p.sessionId !== "string" ||
    !p.toolCall ||
    typeof p.toolCall.toolCallId !== "string" ||
    !Array.isArray(p.options) ||
    !p.options.every((o) => o && typeof o.optionId === "string" && typeof o.kind === "string")
  )
    throw new AcpRpcError(
      -32602,
      "Invalid params: session/request_permission needs sessionId, toolCall.toolCallId and options[]",
    );
  return p as PermissionRequest;
}

/** Which client file-system methods the agent may call, and where. */
export interface FsAccess {
  /** Answer `fs/read_text_file` (default false). */
  read?: boolean;
  /** Answer `fs/write_text_file` (default false). */
  write?: boolean;
  /** The directory paths must stay inside (default: the run's cwd). */
  root?: string;
}

const MAX_READ_BYTES = 10 * 1024 * 1024;

function stringParam(params: unknown, name: string, method: string): string {
  const value = (params as Record<string, unknown> | undefined)?.[name];
  if (typeof value !== "string")
    throw new AcpRpcError(-32602, `Invalid params: ${method} needs a string "${name}"`);
  return value;
}

function optionalLineParam(params: unknown, name: string): number | undefined {
  const value = (params as Record<string, unknown> | undefined)?.[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
    throw new AcpRpcError(-32602, `Invalid params: fs/read_text_file "${name}" must be a positive integer`);
  return value;
}

/** `fs/read_text_file`: the file's text (from `line`, 1-based, at most `limit` lines), contained in `root`. */
export async function readTextFile(root: string, params: unknown): Promise<{ content: string }> {
  const path = stringParam(params, "path", "fs/read_text_file");
  const line = optionalLineParam(params, "line");
  const limit = optionalLineParam(params, "limit");
  let text: string;
  try {
    const file = await openInWorkspace(root, path, { mode: "read" });
    try {
      if (!file.stat.isFile()) throw new Error(`Not a file: ${path}`);
      if (file.stat.size > MAX_READ_BYTES)
        throw new Error(
          `File too large to read over ACP (${file.stat.size} bytes, limit ${MAX_READ_BYTES}): ${path}`,
        );
      text = await file.handle.readFile({ encoding: "utf8" });
    } finally {
      await file.close();
    }
  } catch (error) {
    throw new AcpRpcError(-32603, (error as Error).message);
  }
  if (line === undefined && limit === undefined) return { content: text };
  const lines = text.split("\n");
  const start = (line ?? 1) - 1;
  return { content: lines.slice(start, limit === undefined ? undefined : start + limit).join("\n") };
}

/** `fs/write_text_file`: writes the file atomically, contained in `root` (parents created). */
export async function writeTextFile(root: string, params: unknown): Promise<null> {
  const path = stringParam(params, "path", "fs/write_text_file");
  const content = stringParam(params, "content", "fs/write_text_file");
  try {
    // serialised with every other clawtools writer of the same file (fs write/edit) in this process
    const key = await resolveInWorkspace(root, path);
    await withWriteLock(key, () => writeFileAtomic(root, path, content));
  } catch (error) {
    throw new AcpRpcError(-32603, (error as Error).message);
  }
  return null;
}
