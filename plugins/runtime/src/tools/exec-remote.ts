import type { AgentToolResult, AgentToolUpdateCallback } from "@clawtools/core";
import type { ExecDetails } from "./exec-details.js";
import type { ExecHost } from "./exec-host.js";

/**
 * A run on another host (sandbox or node): the host gets the command, the working directory,
 * only the call's own variables, the timeout and the node named; output streams back.
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
  let output = "";
  const started = Date.now();
  try {
    const exit = await host.run(command, {
      cwd,
      env,
      signal: controller.signal,
      ...(timeoutSec ? { timeoutMs: timeoutSec * 1000 } : {}),
      ...(node ? { node } : {}),
      onData: (chunk) => {
        output += chunk;
        onUpdate?.({
          content: [{ type: "text", text: output.slice(-2000) }],
          details: { status: "running", cwd },
        });
      },
    });
    const text = output.trim();
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
      },
    };
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}
