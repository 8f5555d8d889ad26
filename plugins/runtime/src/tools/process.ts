import {
  type AgentTool,
  type AgentToolResult,
  type Static,
  type ToolContext,
  ToolInputError,
} from "@clawtools/core";
import { backgroundClock, withTimeout } from "@clawtools/core/time";
import { BRACKETED_PASTE_END, BRACKETED_PASTE_START, encodeSendKeys } from "../process/keys.js";
import type { ProcessRegistry } from "../process/registry.js";
import type { BackgroundProcess } from "../process/host.js";
import { quotePrefix, refuseNegative, shortPrefix } from "../text.js";
import { duration, exitLine, summary, text } from "./process-results.js";
import { MAX_POLL_WAIT_MS, nextOutput } from "./process-wait.js";
import { KNOWN_ARGS, processSchema } from "./process-schema.js";

export { processSchema } from "./process-schema.js";

/** Not an error: OpenClaw answers an unknown session as a normal result a model reads and moves on from. */
class NoSession extends Error {}

export function createProcessTool(
  ctx: ToolContext,
  options: { registry: ProcessRegistry },
): AgentTool<typeof processSchema, Record<string, unknown>> {
  const scopeKey = ctx.sessionKey ?? `agent:${ctx.agentId ?? "main"}`;
  const registry = options.registry;
  const find = (id: string | undefined) => {
    if (!id) throw new ToolInputError("sessionId required");
    const session = registry.get(scopeKey, id);
    if (!session) throw new NoSession(`No session found for ${shortPrefix(id, 80)}`);
    return session;
  };
  // input goes only to runs that went to the background: a foreground run belongs to its call
  const requireRunning = (session: BackgroundProcess) => {
    if (!session.running)
      throw new ToolInputError(`Session ${session.id} is not running (${exitLine(session)})`);
    requireBackgrounded(session);
  };
  const requireBackgrounded = (session: BackgroundProcess) => {
    if (!session.backgrounded) throw new ToolInputError(`Session ${session.id} is not backgrounded.`);
  };

  return {
    name: "process",
    // a long call: MCP clients may run it as a task
    taskSupport: "optional",
    label: "process",
    description:
      "Manage running exec sessions: list, poll, log, write, send-keys, submit, paste, kill, clear, remove.",
    parameters: processSchema,
    async execute(_id, params, signal) {
      signal?.throwIfAborted();
      const unknown = Object.keys(params).filter((key) => !KNOWN_ARGS.has(key));
      if (unknown.length)
        throw new ToolInputError(
          `process: unknown argument${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => quotePrefix(k, 40)).join(", ")}. Known arguments: ${[...KNOWN_ARGS].join(", ")}.`,
        );
      for (const name of ["offset", "limit", "timeout"] as const)
        refuseNegative("process", name, params[name]);
      try {
        return await run(params, signal);
      } catch (error) {
        if (!(error instanceof NoSession)) throw error;
        return text(error.message, { status: "failed", error: error.message });
      }
    },
  };

  async function run(
    params: Static<typeof processSchema>,
    signal: AbortSignal | undefined,
  ): Promise<AgentToolResult<Record<string, unknown>>> {
    switch (params.action) {
      case "list": {
        const sessions = registry.list(scopeKey);
        if (sessions.length === 0) return text("No running or recent sessions.", { sessions: [] });
        const lines = sessions.map(
          (s) =>
            `${s.id} ${s.status} ${duration((s.endedAt ?? Date.now()) - s.startedAt)} :: ${s.command.replace(/\s+/g, " ").slice(0, 120)}`,
        );
        return text(lines.join("\n"), { sessions: sessions.map(summary) });
      }
      case "poll": {
        const session = find(params.sessionId);
        if (session.running) requireBackgrounded(session);
        const wait = Math.min(MAX_POLL_WAIT_MS, Math.max(0, params.timeout ?? 0));
        // OpenClaw's poll: back as soon as there is something new, not only at the exit
        if (wait > 0 && session.running && !session.hasUnread) await nextOutput(session, wait, signal);
        const { text: output, omittedChars } = session.poll();
        const body = output.trim() ? output.trimEnd() : "(no new output)";
        return text(`${body}\n\n${exitLine(session)}`, {
          ...summary(session),
          ...(omittedChars > 0 ? { omittedChars } : {}),
          ...(session.running ? { retryInMs: 1000 } : {}),
        });
      }
      case "log": {
        const session = find(params.sessionId);
        const offset = params.offset !== undefined ? Math.floor(params.offset) : undefined;
        const limit = params.limit !== undefined ? Math.floor(params.limit) : undefined;
        const view = await session.log(offset, limit);
        return text(view.text, { sessionId: session.id, total: view.shown, ...session.outputInfo() });
      }
      case "write": {
        const session = find(params.sessionId);
        requireRunning(session);
        if (params.data) session.write(params.data);
        if (params.eof) session.closeStdin();
        return text(
          `Wrote ${params.data?.length ?? 0} bytes to session ${session.id}${params.eof ? " (stdin closed)" : ""}.`,
          { sessionId: session.id },
        );
      }
      case "send-keys": {
        const session = find(params.sessionId);
        requireRunning(session);
        const encoded = encodeSendKeys(
          {
            ...(params.literal !== undefined ? { literal: params.literal } : {}),
            ...(params.hex ? { hex: params.hex } : {}),
            ...(params.keys ? { keys: params.keys } : {}),
          },
          session.applicationCursor,
        );
        if (!encoded.data)
          throw new ToolInputError(
            `Nothing to send${encoded.warnings.length ? `: ${encoded.warnings.join("; ")}` : ""}`,
          );
        session.write(encoded.data);
        const warn = encoded.warnings.length ? `\nWarnings: ${encoded.warnings.join("; ")}` : "";
        return text(`Sent ${encoded.data.length} bytes to session ${session.id}.${warn}`, {
          sessionId: session.id,
          warnings: encoded.warnings,
        });
      }
      case "submit": {
        const session = find(params.sessionId);
        requireRunning(session);
        session.write("\r");
        return text(`Submitted session ${session.id}.`, { sessionId: session.id });
      }
      case "paste": {
        const session = find(params.sessionId);
        requireRunning(session);
        if (params.text === undefined) throw new ToolInputError("text required");
        const payload =
          params.bracketed === false
            ? params.text
            : `${BRACKETED_PASTE_START}${params.text}${BRACKETED_PASTE_END}`;
        session.write(payload);
        return text(`Pasted ${params.text.length} chars to session ${session.id}.`, {
          sessionId: session.id,
        });
      }
      case "kill": {
        const session = find(params.sessionId);
        if (!session.running)
          return text(`Session ${session.id} already exited. ${exitLine(session)}`, summary(session));
        session.kill("SIGTERM");
        await withTimeout<unknown>(session.exited, 3000, {
          clock: backgroundClock,
          onTimeout: () => undefined,
        });
        return text(
          session.running
            ? `Termination requested for session ${session.id}.`
            : `Killed session ${session.id}.`,
          summary(session),
        );
      }
      case "clear": {
        const session = find(params.sessionId);
        if (session.running)
          throw new ToolInputError(`Session ${session.id} is still running; kill it first or use remove.`);
        registry.delete(session.id);
        return text(`Cleared session ${session.id}.`, { sessionId: session.id });
      }
      case "remove": {
        const session = find(params.sessionId);
        if (session.running) {
          session.kill("SIGKILL");
          await session.exited;
        }
        registry.delete(session.id);
        return text(`Removed session ${session.id}.`, { sessionId: session.id });
      }
      default:
        throw new ToolInputError(
          `Unknown action ${shortPrefix(String((params as { action: unknown }).action), 80)}`,
        );
    }
  }
}
