import type { Static, TSchema } from "@sinclair/typebox";
import type { EmbeddedResourceContent, ResourceLinkContent } from "./resources/types.js";

/** A block of text returned to the model. */
export interface TextContent {
  type: "text";
  text: string;
}

/** An image returned to the model: base64 data plus its MIME type. */
export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
}

/** Audio returned to the client (a tts reply): base64 data plus its MIME type (MCP's audio block). */
export interface AudioContent {
  type: "audio";
  data: string;
  mimeType: string;
}

/**
 * What a result may hold: text, images, audio, a link to a resource the host can read
 * (`resource_link`), or a resource's contents embedded (`resource`).
 */
export type ToolContent =
  | TextContent
  | ImageContent
  | AudioContent
  | ResourceLinkContent
  | EmbeddedResourceContent;

/**
 * What a tool returns. `isError` marks a result the model should treat as a failure.
 * `details` (structured data for UIs and loops) may be left out unless the tool declares a
 * details type: a hand-written tool can return `{ content }` alone, while a section typed
 * `AgentToolResult<ExecDetails>` must still fill it.
 */
export type AgentToolResult<TDetails = unknown> = {
  content: ToolContent[];
  isError?: boolean;
} & (unknown extends TDetails ? { details?: TDetails } : { details: TDetails });

/** Streaming progress from a long-running tool; the final result is authoritative. */
export type AgentToolUpdateCallback<TDetails = unknown> = (partial: {
  content?: ToolContent[];
  details?: TDetails;
}) => void;

/**
 * Any JSON-Schema object. TypeBox 0.34 schemas (our authoring choice), TypeBox 1.x
 * schemas and hand-written / MCP-imported schemas are all accepted.
 */
export type JsonSchema = { [key: string]: unknown };

/** Parameters inferred from a TypeBox 0.34 schema, `Record<string, unknown>` otherwise. */
export type ToolParams<TParams> = TParams extends TSchema ? Static<TParams> : Record<string, unknown>;

export interface AgentTool<TParams extends object = JsonSchema, TDetails = unknown> {
  /** Canonical tool name sent to the model (lowercase, `[a-z][a-z0-9_]*`). */
  name: string;
  /** Human-readable label for UIs; the registry falls back to the catalog label or the name. */
  label?: string;
  description: string;
  parameters: TParams;
  /**
   * A long call an MCP client may run as a task (`tasks/get` to follow it, `tasks/cancel` to stop
   * it): "optional", or "required" for a tool that only runs as one. Absent: never a task.
   */
  taskSupport?: "optional" | "required";
  /**
   * With `taskSupport`: the tool asks its client (`currentClient()`, @clawtools/core/client) before
   * its long work. On MCP 2026-07-28 those questions are the call's own `input_required` rounds and
   * the task starts on the retry that answers them (the tool runs again inside it, given the
   * answers); without it a task-run tool's questions park the task `input_required`.
   */
  asksBeforeTask?: boolean;
  execute: (
    toolCallId: string,
    params: ToolParams<TParams>,
    signal?: AbortSignal,
    onUpdate?: AgentToolUpdateCallback<TDetails>,
  ) => Promise<AgentToolResult<TDetails>>;
  /**
   * Loads what the first call needs (a lazily imported section's code, its real tool) ahead of
   * the call; undefined once nothing is left to load. A server calls it before it enters the
   * call's context: on Node 20 the first AsyncLocalStorage run turns on promise hooks for the
   * process, and a module load inside the call would pay them on every promise it makes.
   * Optional and harmless to skip: `execute` loads the same on its own.
   */
  prepare?: () => Promise<void> | undefined;
}

/** A tool of any parameter type, with OpenClaw's owner-only flag. */
export type AnyAgentTool = AgentTool<any, any> & {
  /** When true only owner senders may call the tool. */
  ownerOnly?: boolean;
};

/** A file-system backend for the fs section (local disk, container, virtual fs…). */
export interface FsStat {
  type: "file" | "directory" | "symlink" | "other";
  size: number;
  mtimeMs: number;
}

export interface FsBridge {
  stat(args: { filePath: string; cwd?: string }): Promise<FsStat | null>;
  readFile(args: { filePath: string; cwd?: string }): Promise<Buffer>;
  mkdirp(args: { filePath: string; cwd?: string }): Promise<void>;
  writeFile(args: { filePath: string; cwd?: string; data: string | Buffer }): Promise<void>;
  readdir?(args: { filePath: string; cwd?: string }): Promise<Array<{ name: string; type: FsStat["type"] }>>;
  rename?(args: { from: string; to: string; cwd?: string }): Promise<void>;
  remove?(args: { filePath: string; cwd?: string }): Promise<void>;
  /** Streams a file in chunks, so a reader can page a huge file without loading it whole. */
  readStream?(args: { filePath: string; cwd?: string; signal?: AbortSignal }): AsyncIterable<Buffer>;
}

/** Everything a tool factory may learn about where and for whom it runs. */
export interface ToolContext {
  /** Application configuration (section-specific options live under their section id). */
  config?: Record<string, unknown>;
  workspaceDir?: string;
  agentDir?: string;
  agentId?: string;
  sessionKey?: string;
  messageChannel?: string;
  agentAccountId?: string;
  sandboxed?: boolean;
  /** fs root for the file tools (defaults to workspaceDir). */
  root?: string;
  /** fs implementation for the file tools (defaults to the local disk under root). */
  bridge?: FsBridge;
  /**
   * How results that finish later (a sub-agent's answer) reach the caller: `push` (the default)
   * when an in-process agent loop is woken with them, `pull` when the caller is a client no
   * message reaches (an MCP host), which must ask for them (`sessions_yield` waits and returns).
   */
  laterResults?: "push" | "pull";
  /** Whether the sender is the owner; undefined means not the owner. */
  senderIsOwner?: boolean;
  /**
   * Where derived state goes (indexes, stores, job files, spilled output): never the workspace.
   * `createToolset` fills it with `resolveStateDir()` when a workspace is known.
   */
  stateDir?: string;
  /**
   * Registers a clean-up for a resource a factory created for this toolset (a browser, a
   * timer); `Toolset.dispose()` runs it. Absent outside `createToolset`.
   */
  onDispose?: (dispose: () => void | Promise<void>) => void;
}
