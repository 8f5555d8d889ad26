import type { AgentToolResult } from "@clawtools/core";
import type { BackgroundProcess } from "../process/host.js";

// What the process tool answers with: text results, a session's summary, exit line and run time.

export const text = (
  value: string,
  details: Record<string, unknown> = {},
): AgentToolResult<Record<string, unknown>> => ({
  content: [{ type: "text", text: value }],
  details,
});

export function duration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${s % 60}s`;
  return `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m`;
}

export function exitLine(session: BackgroundProcess): string {
  if (session.running) return "Process still running.";
  const exit = session.exit!;
  return exit.exitSignal
    ? `Process exited with signal ${exit.exitSignal}.`
    : `Process exited with code ${exit.exitCode}.`;
}

export function summary(session: BackgroundProcess) {
  return {
    sessionId: session.id,
    status: session.status,
    pid: session.pid,
    startedAt: session.startedAt,
    runtimeMs: (session.endedAt ?? Date.now()) - session.startedAt,
    cwd: session.cwd,
    command: session.command,
    tail: session.tail,
    truncated: session.outputInfo().truncated,
    ...(session.exit ? { exitCode: session.exit.exitCode, exitSignal: session.exit.exitSignal } : {}),
  };
}
