import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { constants } from "node:os";
import type * as Pty from "@lydell/node-pty";
import { ToolInputError } from "@clawtools/core";
import { backgroundClock } from "@clawtools/core/time";
import { spawnSupervised, startProcessGroupReaper, superviseProcessGroup } from "@clawtools/core/lifecycle";
import type { BackgroundProcess } from "./host.js";
import { MAX_OUTPUT_CHARS, MAX_PENDING_CHARS, TAIL_CHARS } from "./limits.js";
import { type CutView, type LogView, logView, pollView, resultView } from "./output-views.js";
import { SessionOutput } from "./session-output.js";

export type SessionStatus = "running" | "completed" | "failed" | "killed";

export interface SpawnOptions {
  /** The command as given (what `process list` shows). */
  command: string;
  /** The command line the shell runs, when it differs (allowlist mode pins every program). */
  toRun?: string;
  cwd: string;
  env: Record<string, string>;
  pty?: boolean;
  /**
   * A non-PTY child's stdin: "closed" (default, as OpenClaw: it reads EOF at once) or "open"
   * (a pipe `process write` can feed). A PTY always takes input.
   */
  stdin?: "closed" | "open";
  shell?: string;
  scopeKey: string;
  cols?: number;
  rows?: number;
  /** Output kept (default 200,000 chars) and unread output kept (default 30,000). */
  maxOutputChars?: number;
  pendingMaxOutputChars?: number;
  /** The directory output past `maxOutputChars` spills to (created on first use). */
  spillDir?: () => string;
  /** The most a spill file holds (default 64 Mi characters). */
  maxSpillChars?: number;
}

export interface SessionExit {
  exitCode: number | null;
  exitSignal: string | null;
}

// session ids come from a pool of random bytes: one crypto call per 64 sessions, not per run
let idPool = Buffer.alloc(0);
let idOffset = 0;
function slug(): string {
  if (idOffset + 4 > idPool.length) {
    idPool = randomBytes(256);
    idOffset = 0;
  }
  idOffset += 4;
  return idPool.toString("hex", idOffset - 4, idOffset);
}

// node-pty is a native module: it loads on the first PTY run, not when the section is imported
let ptyModule: typeof Pty | undefined;
function loadPty(): typeof Pty {
  ptyModule ??= createRequire(import.meta.url)("@lydell/node-pty") as typeof Pty;
  return ptyModule;
}
/** Whether node-pty has been loaded in this process (it loads on the first `pty: true` run). */
export const ptyLoaded = () => ptyModule !== undefined;

/**
 * Put before the command on its first line: the shell points fd 2 at the stdout pipe before it
 * runs anything, so both streams reach us through one pipe in the order the program wrote them
 * (and line numbers in the shell's messages stay as they were). Only a syntax error on that
 * first line is reported before the redirection runs: it arrives on the stderr pipe.
 */
const MERGE_STDERR = "exec 2>&1; ";

/**
 * One spawned command. The child leads its own process group (`detached`, or the pty's
 * session), so killing the group takes every descendant with it: no orphans.
 */
export class ProcessSession implements BackgroundProcess {
  readonly id = slug();
  readonly startedAt = Date.now();
  readonly command: string;
  readonly cwd: string;
  readonly scopeKey: string;
  readonly pty: boolean;
  /** The output: counts, head and tail in memory, unread part, spill file. */
  readonly output: SessionOutput;
  pid: number | undefined;
  status: SessionStatus = "running";
  exit: SessionExit | undefined;
  endedAt: number | undefined;
  backgrounded = false;
  stdinOpen: boolean;
  /** The program switched the terminal to application-cursor mode (arrows become SS3). */
  applicationCursor = false;
  killRequested = false;
  /** Why the shell could not be started at all (missing shell, bad cwd…). */
  spawnError: string | undefined;
  readonly exited: Promise<SessionExit>;
  private readonly listeners = new Set<(chunk: string) => void>();
  private child: ChildProcess | undefined;
  private terminal: Pty.IPty | undefined;

  constructor(options: SpawnOptions) {
    this.command = options.command;
    this.cwd = options.cwd;
    this.scopeKey = options.scopeKey;
    this.pty = options.pty ?? false;
    this.output = new SessionOutput({
      sessionId: this.id,
      maxOutputChars: options.maxOutputChars ?? MAX_OUTPUT_CHARS,
      pendingMaxOutputChars: options.pendingMaxOutputChars ?? MAX_PENDING_CHARS,
      spillDir: options.spillDir,
      maxSpillChars: options.maxSpillChars,
    });
    this.stdinOpen = this.pty || options.stdin === "open";
    const shell = options.shell ?? "/bin/sh";
    let resolveExit!: (exit: SessionExit) => void;
    let releaseGroup = () => {};
    this.exited = new Promise((resolve) => {
      resolveExit = resolve;
    });
    const finish = (exit: SessionExit) => {
      if (this.exit) return;
      this.exit = exit;
      this.endedAt = Date.now();
      if (this.status === "running") {
        this.status = this.killRequested ? "killed" : exit.exitCode === 0 ? "completed" : "failed";
      }
      this.stdinOpen = false;
      this.output.finish();
      // the group stays supervised while members are left (background jobs), then is forgotten
      releaseGroup();
      resolveExit(exit);
    };
    if (this.pty) {
      // the reaper first, so the group is registered with one write right after the spawn (and a
      // PTY's programs are hung up when this process dies and the terminal's master closes)
      startProcessGroupReaper();
      this.terminal = loadPty().spawn(shell, ["-c", options.toRun ?? options.command], {
        name: "xterm-256color",
        cols: options.cols ?? 120,
        rows: options.rows ?? 30,
        cwd: options.cwd,
        env: options.env,
      });
      this.pid = this.terminal.pid;
      // the PTY's session leader leads its group: it and everything it starts die with this server
      releaseGroup = superviseProcessGroup(this.pid);
      this.terminal.onData((data) => this.push(data));
      this.terminal.onExit(({ exitCode, signal }) =>
        finish({ exitCode: signal ? null : exitCode, exitSignal: signal ? signalName(signal) : null }),
      );
    } else {
      // its own group, tied to this server before the command runs: however this server dies
      // (SIGKILL included, at any moment) the whole group goes with it
      const spawned = spawnSupervised(shell, ["-c", MERGE_STDERR + (options.toRun ?? options.command)], {
        cwd: options.cwd,
        env: options.env,
        // no stdin pipe unless asked: programs read EOF at once, as in OpenClaw
        stdio: [this.stdinOpen ? "pipe" : "ignore", "pipe", "pipe"],
      });
      const child = spawned.child;
      this.child = child;
      this.pid = child.pid;
      releaseGroup = spawned.release;
      child.stdout?.setEncoding("utf8").on("data", (d: string) => this.push(d));
      child.stderr?.setEncoding("utf8").on("data", (d: string) => this.push(d));
      child.stdin?.on("error", () => {
        this.stdinOpen = false;
      });
      child.on("error", (error) => {
        // the shell could not be started (missing shell, bad cwd): there is no exit to wait for
        if (!this.exit) {
          this.spawnError = error.message;
          finish({ exitCode: null, exitSignal: null });
        }
      });
      // 'close' comes after the exit and after stdout is drained: all output is in
      child.on("close", (exitCode: number | null, signal: NodeJS.Signals | null) =>
        finish({ exitCode, exitSignal: signal }),
      );
    }
  }

  private push(chunk: string): void {
    if (chunk.includes("\x1b[?1h")) this.applicationCursor = true;
    if (chunk.includes("\x1b[?1l")) this.applicationCursor = false;
    this.output.append(chunk);
    for (const listener of this.listeners) listener(chunk);
  }

  onData(listener: (chunk: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get tail(): string {
    return this.output.tail.tail(TAIL_CHARS);
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  get hasUnread(): boolean {
    return !this.output.pending.isEmpty;
  }

  poll(): { text: string; omittedChars: number } {
    return pollView(this.output, this.id);
  }

  log(offset: number | undefined, limit: number | undefined): Promise<LogView> {
    return logView(this.output, offset, limit);
  }

  result(): CutView {
    return resultView(this.output, this.id);
  }

  outputInfo() {
    const out = this.output;
    return {
      totalChars: out.total,
      totalLines: out.totalLines,
      truncated: out.overflowed,
      ...(out.spill ? { outputFile: out.spill.path } : {}),
    };
  }

  dispose(): void {
    this.output.dispose();
  }

  write(data: string): void {
    if (!this.running) throw new ToolInputError(`Session ${this.id} has exited; stdin is closed.`);
    if (this.terminal) this.terminal.write(data);
    else if (this.stdinOpen && this.child?.stdin) this.child.stdin.write(data);
    else throw new ToolInputError(`Session ${this.id} stdin is not writable.${this.stdinHint}`);
  }

  private get stdinHint(): string {
    return this.pty
      ? ""
      : " Non-PTY runs start with stdin closed; run exec with pty=true to type into a program.";
  }

  closeStdin(): void {
    if (this.terminal) this.terminal.write("\x04");
    else if (this.stdinOpen) this.child?.stdin?.end();
    else throw new ToolInputError(`Session ${this.id} stdin is not writable.${this.stdinHint}`);
    this.stdinOpen = false;
  }

  /** Signals the whole process group; SIGKILL follows after `graceMs` if it is still alive. */
  kill(signal: NodeJS.Signals = "SIGTERM", graceMs = 2_000): void {
    if (!this.running || this.pid === undefined) return;
    this.killRequested = true;
    killGroup(this.pid, signal);
    if (signal !== "SIGKILL") {
      // the escalation must not hold the process open once nothing else does
      const timer = backgroundClock.setTimeout(() => {
        if (this.running && this.pid !== undefined) killGroup(this.pid, "SIGKILL");
      }, graceMs);
      this.exited.then(() => backgroundClock.clearTimeout(timer));
    }
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

function signalName(signal: number): string {
  const table = constants.signals as Record<string, number>;
  return Object.entries(table).find(([, n]) => n === signal)?.[0] ?? `signal ${signal}`;
}
