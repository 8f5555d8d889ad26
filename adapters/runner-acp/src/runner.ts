import { randomUUID } from "node:crypto";
import { stat } from "node:fs/promises";
import path from "node:path";
import { packageInfo } from "@clawtools/core";
import { checkCallEnv, sanitizeEnv } from "@clawtools/core/safety";
import { systemClock, withTimeout } from "@clawtools/core/time";
import { type RunOutcome, waitForRun } from "@clawtools/core/contracts";
import { AgentProcess } from "./agent-process.js";
import {
  decidePermission,
  type PermissionOutcome,
  parsePermissionRequest,
  readTextFile,
  writeTextFile,
} from "./client-side.js";
import { AcpConnection, AcpConnectionError, AcpRpcError } from "./connection.js";
import { type Guard, isObject, selectModel } from "./model-choice.js";
import { applySessionUpdate, type ReplyBuffer } from "./session-update.js";
import type { AcpRunInfo, AcpRunner, AcpRunnerOptions, AcpStartRunRequest, AcpUpdateEvent } from "./types.js";
import { ACP_PROTOCOL_VERSION } from "./types.js";

export { MAX_REPLY_CHARS } from "./session-update.js";
export {
  ACP_PROTOCOL_VERSION,
  type AcpRunInfo,
  type AcpRunner,
  type AcpRunnerOptions,
  type AcpStartRunRequest,
  type AcpToolCall,
  type AcpUpdateEvent,
} from "./types.js";

const { version } = packageInfo(import.meta.url);

interface Run {
  info: AcpRunInfo;
  done: Promise<RunOutcome>;
  outcome?: RunOutcome;
  steers: string[];
  stop(reason: "aborted" | "timeout"): void;
}

const OK_STOP_REASONS = new Set(["end_turn", "max_tokens", "max_turn_requests"]);

/**
 * An AgentRunner over the Agent Client Protocol: each run launches the agent (a child process in
 * its own process group, environment sanitised as exec's), `initialize`s it, opens the session
 * (`session/new`, or `session/load` to resume one), sends the message with `session/prompt` and
 * collects the streamed `session/update`s into the reply. Abort and timeouts send
 * `session/cancel` and kill the agent if it does not stop; the agent never outlives its run.
 */
export function createAcpRunner(options: AcpRunnerOptions): AcpRunner {
  if (!options.command) throw new Error("createAcpRunner: command is required");
  const extraEnv = checkCallEnv(options.env);
  const defaultCwd = path.resolve(options.cwd ?? process.cwd());
  const startupTimeoutMs = options.startupTimeoutMs ?? 30_000;
  const cancelGraceMs = options.cancelGraceMs ?? 5_000;
  const policy = options.permissions ?? "deny";
  const runs = new Map<string, Run>();
  const sessionIds = new Map<string, string>();

  async function acpSessionIdFor(sessionKey: string): Promise<string | undefined> {
    const known = sessionIds.get(sessionKey);
    if (known || !options.store) return known;
    const history = await options.store.history(sessionKey, { limit: 50 }).catch(() => []);
    for (let i = history.length - 1; i >= 0; i--) {
      const acp = history[i]?.acp;
      if (isObject(acp) && typeof acp.sessionId === "string") return acp.sessionId;
    }
    return undefined;
  }

  async function execute(
    runId: string,
    request: AcpStartRunRequest,
    run: Run,
    stopped: Promise<void>,
    recorded: () => void,
  ) {
    const info = run.info;
    const cwd = request.cwd ?? defaultCwd;
    if (!path.isAbsolute(cwd)) throw new Error(`the ACP session's cwd must be an absolute path: ${cwd}`);
    const cwdStat = await stat(cwd).catch(() => undefined);
    if (!cwdStat?.isDirectory()) throw new Error(`the ACP session's cwd is not a directory: ${cwd}`);
    const resumeId = request.resumeSessionId ?? (await acpSessionIdFor(request.sessionKey));
    const explicitResume = request.resumeSessionId !== undefined;
    const fsRoot = path.resolve(cwd, options.fs?.root ?? ".");
    await options.store?.append(request.sessionKey, [
      { role: "user", content: request.message, timestamp: Date.now() },
    ]);
    recorded();

    const agent = new AgentProcess({
      command: options.command,
      args: options.args ?? [],
      cwd,
      env: { ...sanitizeEnv(options.baseEnv ?? process.env, undefined), ...extraEnv },
      killGraceMs: options.killGraceMs,
    });
    if (agent.pid !== undefined) info.pid = agent.pid;
    const runState = { stopping: false };
    let replaying = false;
    let turn: ReplyBuffer = { chunks: [], chars: 0 };
    const cancelPermissions = new Set<() => void>();
    const ownSession = (params: unknown) =>
      isObject(params) && info.acpSessionId !== undefined && params.sessionId === info.acpSessionId;

    const onRequest = async (method: string, params: unknown): Promise<unknown> => {
      if (method === "session/request_permission") {
        const req = parsePermissionRequest(params);
        if (!ownSession(req)) throw new AcpRpcError(-32602, `Unknown session: ${req.sessionId}`);
        let cancel!: () => void;
        const cancelled = new Promise<PermissionOutcome>((resolve) => {
          cancel = () => resolve({ outcome: "cancelled" });
        });
        cancelPermissions.add(cancel);
        if (runState.stopping) cancel();
        try {
          const outcome = await Promise.race([decidePermission(policy, req), cancelled]);
          info.permissions.push({
            toolCallId: req.toolCall.toolCallId,
            ...(typeof req.toolCall.title === "string" ? { title: req.toolCall.title } : {}),
            outcome,
          });
          return { outcome };
        } finally {
          cancelPermissions.delete(cancel);
        }
      }
      if (method === "fs/read_text_file" || method === "fs/write_text_file") {
        const write = method === "fs/write_text_file";
        if (!(write ? options.fs?.write : options.fs?.read))
          throw new AcpRpcError(-32601, `${method} is not enabled: this client did not advertise it`);
        if (!ownSession(params))
          throw new AcpRpcError(
            -32602,
            `Unknown session: ${String((params as { sessionId?: unknown })?.sessionId)}`,
          );
        return write ? writeTextFile(fsRoot, params) : readTextFile(fsRoot, params);
      }
      throw new AcpRpcError(-32601, `Method not found: ${method}`);
    };

    const onNotification = (method: string, params: unknown) => {
      if (method !== "session/update" || !ownSession(params)) return;
      const update = (params as { update?: unknown }).update;
      if (!isObject(update) || replaying) return;
      applySessionUpdate(update, info, turn);
      const event: AcpUpdateEvent = {
        runId,
        sessionKey: request.sessionKey,
        acpSessionId: info.acpSessionId!,
        update,
      };
      for (const listener of [options.onUpdate, request.onUpdate]) {
        try {
          listener?.(event);
        } catch {
          // a listener's failure is its own; the run goes on
        }
      }
    };

    const conn = new AcpConnection(agent.child.stdout, agent.child.stdin, onRequest, onNotification);
    void agent.exited.then(() => conn.close(new AcpConnectionError(agent.describeExit(), "ended")));
    void stopped.then(() => {
      runState.stopping = true;
      for (const cancel of cancelPermissions) cancel();
      if (info.acpSessionId) conn.notify("session/cancel", { sessionId: info.acpSessionId });
      else void agent.kill();
      const grace = systemClock.setTimeout(() => void agent.kill(), cancelGraceMs);
      void agent.exited.then(() => systemClock.clearTimeout(grace));
    });
    // no new request once the run is being stopped (the stop's own cancel / kill ends the one in flight)
    const guard: Guard = (send) =>
      runState.stopping ? Promise.reject(new AcpConnectionError("stopped")) : send();

    try {
      const init = await guard(() =>
        conn.request<Record<string, unknown>>(
          "initialize",
          {
            protocolVersion: ACP_PROTOCOL_VERSION,
            clientCapabilities: {
              fs: { readTextFile: options.fs?.read === true, writeTextFile: options.fs?.write === true },
              terminal: false,
            },
            clientInfo: { name: "clawtools", title: "clawtools", version },
          },
          startupTimeoutMs,
        ),
      );
      if (!isObject(init) || init.protocolVersion !== ACP_PROTOCOL_VERSION)
        throw new Error(
          `the ACP agent speaks protocol version ${JSON.stringify(isObject(init) ? init.protocolVersion : init)}; this client speaks ${ACP_PROTOCOL_VERSION}`,
        );
      if (isObject(init.agentInfo)) info.agentInfo = init.agentInfo as AcpRunInfo["agentInfo"];
      const caps = isObject(init.agentCapabilities) ? init.agentCapabilities : {};
      const mcpServers = options.mcpServers ?? [];
      let setup: unknown;
      const sessionCaps = isObject(caps.sessionCapabilities) ? caps.sessionCapabilities : {};
      // session/load replays the history; session/resume (newer agents) continues without it
      const reopen =
        caps.loadSession === true
          ? "session/load"
          : isObject(sessionCaps.resume)
            ? "session/resume"
            : undefined;
      if (resumeId && reopen) {
        info.acpSessionId = resumeId;
        info.resumed = true;
        replaying = true;
        try {
          setup = await guard(() =>
            conn.request(reopen, { sessionId: resumeId, cwd, mcpServers }, startupTimeoutMs),
          );
        } catch (error) {
          if (error instanceof AcpRpcError)
            throw new Error(`the ACP agent could not load session ${resumeId}: ${error.message}`);
          throw error;
        } finally {
          replaying = false;
        }
      } else if (resumeId && explicitResume) {
        throw new Error(
          `the ACP agent can neither load nor resume sessions (no loadSession or sessionCapabilities.resume), so session ${resumeId} cannot be resumed`,
        );
      } else {
        const created = await guard(() =>
          conn.request<Record<string, unknown>>("session/new", { cwd, mcpServers }, startupTimeoutMs),
        );
        if (!isObject(created) || typeof created.sessionId !== "string" || created.sessionId === "")
          throw new Error("the ACP agent answered session/new without a sessionId");
        info.acpSessionId = created.sessionId;
        setup = created;
      }
      const acpSessionId = info.acpSessionId!;
      sessionIds.set(request.sessionKey, acpSessionId);
      if (request.model) await selectModel(conn, acpSessionId, request.model, setup, startupTimeoutMs, guard);
      let prompt: { type: "text"; text: string }[] = [
        ...(request.extraSystemPrompt ? [{ type: "text" as const, text: request.extraSystemPrompt }] : []),
        { type: "text", text: request.message },
      ];
      let stopReason: string;
      for (;;) {
        turn = { chunks: [], chars: 0 };
        const answer = await guard(() =>
          conn.request<Record<string, unknown>>("session/prompt", { sessionId: acpSessionId, prompt }),
        );
        if (!isObject(answer) || typeof answer.stopReason !== "string")
          throw new Error("the ACP agent answered session/prompt without a stopReason");
        stopReason = answer.stopReason;
        info.stopReason = stopReason;
        if (stopReason !== "end_turn" || run.steers.length === 0 || runState.stopping) break;
        // steering: ACP has no mid-turn injection, so steered messages are the next turn
        prompt = [{ type: "text", text: run.steers.splice(0).join("\n\n") }];
      }
      const reply = turn.chunks.join("").trim();
      await options.store?.append(request.sessionKey, [
        {
          role: "assistant",
          content: [{ type: "text", text: reply }],
          timestamp: Date.now(),
          stopReason,
          // the ACP session id lets a later run (another process, after a restart) continue it
          acp: {
            sessionId: acpSessionId,
            stopReason,
            toolCalls: info.toolCalls.map(({ toolCallId, title, kind, status }) => ({
              toolCallId,
              ...(title ? { title } : {}),
              ...(kind ? { kind } : {}),
              ...(status ? { status } : {}),
            })),
          },
        },
      ]);
      if (stopReason === "cancelled") return { reply, cancelled: true };
      if (!OK_STOP_REASONS.has(stopReason))
        throw new Error(`the ACP agent ended the turn with stopReason "${stopReason}"`);
      return { reply, cancelled: false };
    } catch (error) {
      // an agent that died mid-request: name how it ended (exit code, stderr), not just the closed pipe
      if (error instanceof AcpConnectionError && error.kind === "ended") {
        const exited = await withTimeout(
          agent.exited.then(() => true),
          2000,
          { onTimeout: () => false },
        );
        if (exited) throw new AcpConnectionError(agent.describeExit(), "ended");
      }
      throw error;
    } finally {
      conn.close(new AcpConnectionError("the run ended"));
      await agent.kill();
    }
  }

  const runner: AcpRunner = {
    async start(request: AcpStartRunRequest) {
      const runId = randomUUID();
      let stopReason: "aborted" | "timeout" | undefined;
      let signalStop!: () => void;
      const stopped = new Promise<void>((resolve) => {
        signalStop = resolve;
      });
      const run: Run = {
        info: {
          runId,
          sessionKey: request.sessionKey,
          resumed: false,
          toolCalls: [],
          permissions: [],
        },
        steers: [],
        done: Promise.resolve({ status: "ok" }),
        stop(reason) {
          if (stopReason || run.outcome) return;
          stopReason = reason;
          signalStop();
        },
      };
      const timer = request.timeoutMs
        ? systemClock.setTimeout(() => run.stop("timeout"), request.timeoutMs)
        : undefined;
      // start answers once the message is in the session (or the run ended without writing it):
      // an acknowledged send survives a kill -9 that comes right after the acknowledgement
      let recorded!: () => void;
      const inSession = new Promise<void>((resolve) => {
        recorded = resolve;
      });
      run.done = (async (): Promise<RunOutcome> => {
        try {
          const { reply, cancelled } = await execute(runId, request, run, stopped, recorded);
          if (stopReason === "timeout")
            return { status: "timeout", error: "timed out", ...(reply ? { reply } : {}) };
          if (stopReason === "aborted") return { status: "aborted", error: "aborted" };
          if (cancelled) return { status: "aborted", error: "the ACP agent cancelled the turn" };
          return { status: "ok", reply };
        } catch (error) {
          if (stopReason === "timeout") return { status: "timeout", error: "timed out" };
          if (stopReason === "aborted") return { status: "aborted", error: "aborted" };
          return { status: "error", error: (error as Error).message };
        } finally {
          if (timer !== undefined) systemClock.clearTimeout(timer);
        }
      })();
      void run.done.then((outcome) => {
        run.outcome = outcome;
        recorded();
      });
      runs.set(runId, run);
      await inSession;
      return { runId };
    },

    wait: (runId, timeoutMs) => waitForRun(runs.get(runId), runId, timeoutMs),

    async abort(runId) {
      const run = runs.get(runId);
      if (!run || run.outcome) return;
      run.stop("aborted");
      await run.done;
    },

    async steer(runId, message) {
      const run = runs.get(runId);
      if (!run || run.outcome) return false;
      run.steers.push(message);
      return true;
    },

    info: (runId) => runs.get(runId)?.info,
    acpSessionIdFor,

    async dispose() {
      await Promise.all([...runs.keys()].map((runId) => runner.abort(runId)));
    },
  };
  return runner;
}
