import type { CutView, LogView } from "./output-views.js";
import { ProcessSession, type SessionExit, type SessionStatus, type SpawnOptions } from "./session.js";

/**
 * One command started by a `ProcessHost`, running or finished, wherever it runs. `exec` waits on
 * it and `process` drives it through this handle only, so a host on another machine (a container,
 * an SSH node, a Gateway) backs background work and `process` as the local one does. A host can
 * keep its output with `SessionOutput` and answer `poll`/`log`/`result` with `pollView`,
 * `logView` and `resultView`, as the local host does.
 */
export interface BackgroundProcess {
  readonly id: string;
  readonly scopeKey: string;
  /** The command as given (what `process list` shows). */
  readonly command: string;
  readonly cwd: string;
  readonly startedAt: number;
  /** The process id on the host that runs it (shown, never signalled from here). */
  readonly pid: number | undefined;
  readonly status: SessionStatus;
  readonly exit: SessionExit | undefined;
  readonly endedAt: number | undefined;
  readonly running: boolean;
  /** Why the command could not be started at all (then `exited` settles at once). */
  readonly spawnError: string | undefined;
  /** Set when the run left its call (yield window, `background: true`). */
  backgrounded: boolean;
  /** The program put its terminal in application-cursor mode (PTY runs: arrows become SS3). */
  readonly applicationCursor: boolean;
  readonly exited: Promise<SessionExit>;
  /** The last 2,000 characters of output (progress updates, exit notices). */
  readonly tail: string;
  /** Whether output arrived that `poll` has not returned yet. */
  readonly hasUnread: boolean;
  onData(listener: (chunk: string) => void): () => void;
  /** Unread output, a notice first when part of it was left out (naming how to read it). */
  poll(): { text: string; omittedChars: number };
  /** Lines of the whole output, 0-based, every gap named. */
  log(offset: number | undefined, limit: number | undefined): Promise<LogView>;
  /** What a finished run's result shows (head and tail past the limit). */
  result(): CutView;
  /** Sizes of the whole output, and where it spilled. */
  outputInfo(): { totalChars: number; totalLines: number; truncated: boolean; outputFile?: string };
  write(data: string): void;
  closeStdin(): void;
  /**
   * Signals the whole process group; SIGKILL follows after `graceMs` if it is still alive. A no-op
   * once the process has exited (dispose() calls it on every handle).
   */
  kill(signal?: NodeJS.Signals, graceMs?: number): void;
  /** The handle is forgotten: release what it holds (spill files, connections). */
  dispose(): void;
}

/** Starts commands as background-capable processes: this machine by default, or any backend. */
export interface ProcessHost {
  spawn(options: SpawnOptions): BackgroundProcess;
}

/** This machine: each command in its own process group, supervised so it dies with the server. */
export const localProcessHost: ProcessHost = {
  spawn: (options) => new ProcessSession(options),
};
