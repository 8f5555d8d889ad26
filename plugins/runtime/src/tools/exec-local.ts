import type { AgentToolResult, AgentToolUpdateCallback } from "@clawtools/core";
import { backgroundClock, systemClock } from "@clawtools/core/time";
import { type BackgroundExitNotice, backgroundExitNotice } from "../process/exit-notice.js";
import type { ProcessRegistry } from "../process/registry.js";
import type { BackgroundProcess, ProcessHost } from "../process/host.js";
import { execOutputLink } from "../exec-output-resources.js";
import type { ExecDetails } from "./exec-details.js";

export interface LocalRunOptions {
  registry: ProcessRegistry;
  scopeKey: string;
  /** The command as the call gave it (listed by `process`). */
  command: string;
  /** The command line the shell runs (the rebuilt, pinned one in allowlist mode). */
  toRun: string;
  cwd: string;
  env: Record<string, string>;
  pty: boolean;
  shell?: string | undefined;
  stdin?: "closed" | "open" | undefined;
  /** Seconds before the run is killed (undefined: no timeout). */
  timeoutSec: number | undefined;
  /** Run in the background at once. */
  background: boolean;
  /** Milliseconds to wait in the foreground before backgrounding (undefined: wait to the end). */
  yieldMs: number | undefined;
  onBackgroundExit?: ((notice: BackgroundExitNotice) => void) | undefined;
  notifyOnExit?: boolean | undefined;
  notifyOnExitEmptySuccess?: boolean | undefined;
  /** Where the command runs (default: the registry's host, this machine). */
  host?: ProcessHost | undefined;
  /** Where output past the limit spills (the state dir's `runtime/exec-output`); else a temp dir. */
  spillDir?: string | undefined;
  /**
   * Records what the command changed in the undo journal, once it exits: a finished result
   * waits for it; a command that goes on in the background is recorded when it ends.
   */
  journal?: (() => Promise<unknown>) | undefined;
}

const TIMEOUT_HINT =
  "If this command is expected to take longer, re-run with a higher timeout (e.g., exec timeoutSeconds=300), or with background=true / yieldMs and follow up with process; do not rely on a trailing '&'.";

function runningResult(session: BackgroundProcess): AgentToolResult<ExecDetails> {
  return {
    content: [
      {
        type: "text",
        text: `Command still running (session ${session.id}, pid ${session.pid}). Use process (list/poll/log/write/kill/clear/remove) for follow-up.`,
      },
    ],
    details: {
      status: "running",
      sessionId: session.id,
      pid: session.pid!,
      startedAt: session.startedAt,
      cwd: session.cwd,
      tail: session.tail,
    },
  };
}

/** The registry's session for the run (spawned at once). */
function spawnSession(options: LocalRunOptions): BackgroundProcess {
  return options.registry.spawn(
    {
      command: options.command,
      toRun: options.toRun,
      cwd: options.cwd,
      env: options.env,
      scopeKey: options.scopeKey,
      ...(options.pty ? { pty: true } : {}),
      ...(options.shell ? { shell: options.shell } : {}),
      ...(options.stdin ? { stdin: options.stdin } : {}),
      ...(options.spillDir ? { spillDir: () => options.spillDir! } : {}),
    },
    options.host,
  );
}

/** The final text of a finished run; 126/127 and timeouts are failures (thrown → isError). */
function finishedResult(
  session: BackgroundProcess,
  timedOutSec: number | undefined,
): AgentToolResult<ExecDetails> {
  const view = session.result();
  const output = view.text;
  const exit = session.exit!;
  const fail = (reason: string): never => {
    throw new Error(output ? `${output}\n\n${reason}` : reason);
  };
  if (session.spawnError) fail(`Failed to start the command: ${session.spawnError}`);
  if (timedOutSec !== undefined) fail(`Command timed out after ${timedOutSec} seconds. ${TIMEOUT_HINT}`);
  if (exit.exitCode === 127) fail("Command not found");
  if (exit.exitCode === 126) fail("Command not executable (permission denied)");
  if (exit.exitCode === null) fail(`Command aborted by signal ${exit.exitSignal}`);
  const exitNote = exit.exitCode !== 0 ? `\n\n(Command exited with code ${exit.exitCode})` : "";
  return {
    content: [
      { type: "text", text: (output || "(no output)") + exitNote },
      // the spilled whole output, as a resource a host can read (the path is outside any workspace)
      ...(view.truncated && view.outputFile ? [execOutputLink(session)] : []),
    ],
    details: {
      status: "completed",
      exitCode: exit.exitCode,
      exitSignal: exit.exitSignal,
      durationMs: (session.endedAt ?? Date.now()) - session.startedAt,
      cwd: session.cwd,
      sessionId: session.id,
      aggregated: output,
      ...(view.truncated
        ? {
            ...session.outputInfo(),
            truncated: true,
            omittedChars: view.omittedChars,
            omittedLines: view.omittedLines,
          }
        : {}),
    },
  };
}

/**
 * A run on this machine: a process session that the call waits for until it ends, the yield
 * window passes (then it lives on in the background) or the timeout or abort kills its group.
 */
export async function runLocally(
  options: LocalRunOptions,
  signal: AbortSignal | undefined,
  onUpdate: AgentToolUpdateCallback<ExecDetails> | undefined,
): Promise<AgentToolResult<ExecDetails>> {
  let session: BackgroundProcess;
  try {
    session = spawnSession(options);
  } catch (error) {
    await options.journal?.().catch(() => undefined);
    throw error;
  }
  // a journal that cannot record never fails the command
  const journalled = session.exited.then(() => options.journal?.()).catch(() => undefined);
  const { timeoutSec } = options;
  let timedOut = false;
  // the process holds the event loop while it runs; its time limit must not
  const timer = timeoutSec
    ? backgroundClock.setTimeout(() => {
        timedOut = true;
        session.kill("SIGKILL");
      }, timeoutSec * 1000)
    : undefined;
  session.exited.then(() => {
    if (timer !== undefined) backgroundClock.clearTimeout(timer);
    if (options.notifyOnExit === false || !options.onBackgroundExit) return;
    const notice = backgroundExitNotice(session, { emptySuccess: options.notifyOnExitEmptySuccess === true });
    if (notice) options.onBackgroundExit(notice);
  });

  if (options.background) {
    session.backgrounded = true;
    return runningResult(session);
  }
  // content is the new output only, so a caller appending partials prints everything once;
  // details.tail is the recent output as a whole, for a UI that redraws instead
  const stopUpdates = session.onData((chunk) => {
    onUpdate?.({
      content: [{ type: "text", text: chunk }],
      details: { status: "running", cwd: options.cwd, sessionId: session.id, tail: session.tail },
    });
  });
  const onAbort = () => session.kill("SIGKILL");
  signal?.addEventListener("abort", onAbort, { once: true });
  let yieldTimer: unknown;
  try {
    const outcome = await Promise.race([
      session.exited.then(() => "exited" as const),
      ...(options.yieldMs !== undefined
        ? [
            new Promise<"yield">((resolve) => {
              yieldTimer = systemClock.setTimeout(() => resolve("yield"), options.yieldMs!);
            }),
          ]
        : []),
    ]);
    if (outcome === "yield" && session.running) {
      // the call returns; the process lives on as a session and stops streaming to this call
      session.backgrounded = true;
      return runningResult(session);
    }
    await journalled;
    if (signal?.aborted) throw new Error("Command aborted");
    return finishedResult(session, timedOut ? timeoutSec : undefined);
  } finally {
    if (yieldTimer !== undefined) systemClock.clearTimeout(yieldTimer);
    stopUpdates();
    signal?.removeEventListener("abort", onAbort);
  }
}
