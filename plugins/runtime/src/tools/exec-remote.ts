import type { AgentToolResult, AgentToolUpdateCallback } from "@clawtools/core";
import { MAX_OUTPUT_CHARS, MAX_PENDING_CHARS } from "../process/limits.js";
import { resultView } from "../process/output-views.js";
import { SessionOutput } from "../process/session-output.js";
import type { ExecDetails } from "./exec-details.js";
import type { ExecHost } from "./exec-host.js";

/**
 * A run on another host (sandbox or node): the host gets the command, the working directory,
 * only the call's own variables, the timeout and the node named; output streams back. Past the
 * output limit the result keeps the head and the tail; the middle is not kept (such a host has
 * no process handle to read it back from).
 */
export async function runOnHost(
  host: ExecHost,
  command: string,
  cwd: string,
  env: Record<string, string>,
  { timeoutSec, node }: { timeoutSec?: number | undefined; node?: string | undefined },
  signal: AbortSignal | undefined,
  onUpdate: AgentToolUpdateCallback<ExecDetails> | undefined,
): Promise<AgentToolResult<ExecDetails>> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  const output = new SessionOutput({
    sessionId: "remote",
    maxOutputChars: MAX_OUTPUT_CHARS,
    pendingMaxOutputChars: MAX_PENDING_CHARS,
    noSpillReason:
      "this host runs commands in the foreground only; give it `processes` to keep whole outputs",
  });
  const started = Date.now();
  try {
    const exit = await host.run(command, {
      cwd,
      env,
      signal: controller.signal,
      ...(timeoutSec ? { timeoutMs: timeoutSec * 1000 } : {}),
      ...(node ? { node } : {}),
      onData: (chunk) => {
        output.append(chunk);
        // the new output only (appended by the caller), the recent whole in details.tail
        onUpdate?.({
          content: [{ type: "text", text: chunk }],
          details: { status: "running", cwd, tail: output.tail.tail(2000) },
        });
      },
    });
    const view = resultView(output, "remote");
    const text = view.text;
    if (exit.exitCode === 127) throw new Error(text ? `${text}\n\nCommand not found` : "Command not found");
    const note = exit.exitCode !== 0 ? `\n\n(Command exited with code ${exit.exitCode})` : "";
    return {
      content: [{ type: "text", text: (text || "(no output)") + note }],
      details: {
        status: "completed",
        exitCode: exit.exitCode,
        durationMs: Date.now() - started,
        cwd,
        aggregated: text,
        ...(view.truncated
          ? {
              truncated: true,
              totalChars: output.total,
              totalLines: output.totalLines,
              omittedChars: view.omittedChars,
              omittedLines: view.omittedLines,
            }
          : {}),
      },
    };
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}
