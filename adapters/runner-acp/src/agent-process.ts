import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { withTimeout } from "@clawtools/core/time";
import { spawnSupervised } from "@clawtools/core/lifecycle";

/** How much of the agent's stderr is kept for error messages. */
const STDERR_TAIL = 2000;

/** Process groups of agents still running, killed when this process exits (no orphan agents). */
const live = new Set<number>();
let exitHook = false;

const GROUPS = process.platform !== "win32";

/** Signals the agent's whole process group (the process alone where there are no groups). */
function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(GROUPS ? -pid : pid, signal);
  } catch {
    // already gone
  }
}

function installExitHook(): void {
  if (exitHook) return;
  exitHook = true;
  process.once("exit", () => {
    for (const pid of live) killGroup(pid, "SIGKILL");
  });
}

export interface AgentProcessOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** How long the agent gets after SIGTERM before SIGKILL (default 2000 ms). */
  killGraceMs?: number;
}

/**
 * The agent as a child process in its own process group, so stopping it also stops whatever it
 * started (shells, language servers). `exited` settles once it is gone; `kill()` is idempotent.
 */
export class AgentProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private stderrTail = "";
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private spawnError: Error | undefined;
  private killing: Promise<void> | undefined;

  constructor(private readonly options: AgentProcessOptions) {
    installExitHook();
    // its own group, tied to this process before the agent runs: the exit hook runs only when
    // this process exits on its own, the reaper covers SIGKILL too (at any moment)
    const spawned = spawnSupervised(options.command, options.args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    this.child = spawned.child as ChildProcessWithoutNullStreams;
    const pid = this.child.pid;
    if (pid !== undefined) live.add(pid);
    const releaseGroup = spawned.release;
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL);
    });
    // stdin errors (EPIPE after a crash) are reported through the connection and the exit
    this.child.stdin.on("error", () => {});
    this.exited = new Promise((resolve) => {
      this.child.once("error", (error) => {
        this.spawnError = error;
        releaseGroup();
        if (pid !== undefined) live.delete(pid);
        this.exitInfo ??= { code: null, signal: null };
        resolve(this.exitInfo);
      });
      this.child.once("close", (code, signal) => {
        releaseGroup();
        if (pid !== undefined) live.delete(pid);
        this.exitInfo ??= { code, signal };
        resolve(this.exitInfo);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether the process has ended (or never started). */
  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  /** What ended the agent, for error messages: the spawn error, or the exit code / signal and stderr. */
  describeExit(): string {
    if (this.spawnError)
      return `the ACP agent could not be started (${this.options.command}): ${this.spawnError.message}`;
    const info = this.exitInfo;
    const how = !info
      ? "stopped answering"
      : info.signal
        ? `was killed by ${info.signal}`
        : `exited with code ${info.code}`;
    const stderr = this.stderrTail.trim();
    return `the ACP agent ${how} before the run ended${stderr ? `; its stderr ends with: ${stderr.slice(-500)}` : ""}`;
  }

  /** Stops the agent and its process group: stdin closed, SIGTERM, SIGKILL after the grace period. */
  kill(): Promise<void> {
    this.killing ??= (async () => {
      const pid = this.child.pid;
      if (pid === undefined || this.hasExited) {
        // leftovers of a group whose leader exited (a group id is not reused while members live)
        if (pid !== undefined && GROUPS) killGroup(pid, "SIGKILL");
        return;
      }
      this.child.stdin.end();
      killGroup(pid, "SIGTERM");
      const result = await withTimeout<unknown>(this.exited, this.options.killGraceMs ?? 2000, {
        onTimeout: () => "timeout",
      });
      // the group may outlive its leader: always finish it
      if (GROUPS || !this.hasExited) killGroup(pid, "SIGKILL");
      if (result === "timeout") await this.exited;
      live.delete(pid);
    })();
    return this.killing;
  }
}
