// The ACP runner's public shapes (options, run requests, updates, run info), apart from its engine.
import type { AgentRunner, SessionStore, StartRunRequest } from "@clawtools/core/contracts";
import type { FsAccess, PermissionOutcome, PermissionPolicy } from "./client-side.js";

/** The ACP protocol version this client speaks. */
export const ACP_PROTOCOL_VERSION = 1;

export interface AcpRunnerOptions {
  /** The agent's executable (`codex-acp`, `claude-code-acp`, `gemini` …), looked up on PATH. */
  command: string;
  args?: string[];
  /**
   * Variables added to the agent's environment, checked as exec's `env` is (PATH and the
   * loader/shell keys OpenClaw blocks are refused when the runner is created).
   */
  env?: Record<string, string>;
  /** The environment the agent inherits, sanitised as exec's (default `process.env`). */
  baseEnv?: NodeJS.ProcessEnv;
  /** The session's working directory (absolute; default the current directory when the runner is created). */
  cwd?: string;
  /** Where each run's user message and reply are recorded (the sessions plugin's store). */
  store?: SessionStore;
  /** Answers to `session/request_permission` (default `deny`). */
  permissions?: PermissionPolicy;
  /** `fs/read_text_file` / `fs/write_text_file` for the agent (default: neither), contained in `root`. */
  fs?: FsAccess;
  /** MCP servers handed to the agent when the session is opened (default none). */
  mcpServers?: unknown[];
  /** Limit on each of `initialize`, `session/new`, `session/load` / `session/resume` and the model selection (default 30 000 ms). */
  startupTimeoutMs?: number;
  /** How long an agent has to end its turn after `session/cancel` before it is killed (default 5000 ms). */
  cancelGraceMs?: number;
  /** How long the agent has after SIGTERM before SIGKILL (default 2000 ms). */
  killGraceMs?: number;
  /** Every `session/update` of a run as it arrives (not the history a `session/load` replays): stream it to a parent. */
  onUpdate?: (event: AcpUpdateEvent) => void;
}

export interface AcpStartRunRequest extends StartRunRequest {
  /** Resume this ACP session (`session/load` or `session/resume`) instead of the session's last one or a new one. */
  resumeSessionId?: string;
  /** The run's working directory (absolute), instead of the runner's. */
  cwd?: string;
  /** This run's `session/update`s as they arrive, besides the runner's `onUpdate` (`streamTo: "parent"`). */
  onUpdate?: (event: AcpUpdateEvent) => void;
}

export interface AcpUpdateEvent {
  runId: string;
  sessionKey: string;
  acpSessionId: string;
  /** The ACP `SessionUpdate` (`sessionUpdate: "agent_message_chunk" | "tool_call" | …`). */
  update: Record<string, unknown>;
}

/** A tool call the agent reported (`tool_call`, merged with its `tool_call_update`s). */
export interface AcpToolCall {
  toolCallId: string;
  title?: string;
  kind?: string;
  status?: string;
  rawInput?: unknown;
  rawOutput?: unknown;
}

/** What a run did, for status displays and tests. */
export interface AcpRunInfo {
  runId: string;
  sessionKey: string;
  /** The ACP session id (pass it as `resumeSessionId` to continue it later). */
  acpSessionId?: string;
  /** Whether the session was resumed with `session/load`. */
  resumed: boolean;
  /** The agent's process id (the process is gone once the run has ended). */
  pid?: number;
  agentInfo?: { name?: string; version?: string; title?: string };
  toolCalls: AcpToolCall[];
  permissions: { toolCallId: string; title?: string; outcome: PermissionOutcome }[];
  stopReason?: string;
}

export interface AcpRunner extends AgentRunner {
  start(request: AcpStartRunRequest): Promise<{ runId: string }>;
  info(runId: string): AcpRunInfo | undefined;
  /** The ACP session a session key's runs continue (from this runner, else from the store's transcript). */
  acpSessionIdFor(sessionKey: string): Promise<string | undefined>;
  /** Aborts every run and stops every agent process. */
  dispose(): Promise<void>;
}
