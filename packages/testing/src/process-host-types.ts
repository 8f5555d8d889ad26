// The shapes the ProcessHost conformance suite drives (structural: any host can satisfy them).

export interface ConformanceSpawnOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
  scopeKey: string;
  stdin?: "closed" | "open";
}

export interface ConformanceExit {
  exitCode: number | null;
  exitSignal: string | null;
}

/** What `BackgroundProcess` promises (structurally; the members this suite drives). */
export interface BackgroundProcessUnderTest {
  readonly id: string;
  readonly scopeKey: string;
  readonly command: string;
  readonly cwd: string;
  readonly pid: number | undefined;
  readonly status: "running" | "completed" | "failed" | "killed";
  readonly exit: ConformanceExit | undefined;
  readonly running: boolean;
  readonly spawnError: string | undefined;
  readonly exited: Promise<ConformanceExit>;
  readonly tail: string;
  readonly hasUnread: boolean;
  onData(listener: (chunk: string) => void): () => void;
  poll(): { text: string; omittedChars: number };
  log(offset: number | undefined, limit: number | undefined): Promise<{ text: string; shown: number }>;
  result(): { text: string; truncated: boolean };
  outputInfo(): { totalChars: number; totalLines: number; truncated: boolean };
  write(data: string): void;
  closeStdin(): void;
  kill(signal?: NodeJS.Signals, graceMs?: number): void;
  dispose(): void;
}

export interface ProcessHostUnderTest {
  host: { spawn(options: ConformanceSpawnOptions): BackgroundProcessUnderTest };
  /** A directory on the host the commands may run in. */
  cwd: string;
  /** The environment given to every command (PATH at least). */
  env: Record<string, string>;
  /**
   * Whether a process id is still alive on the host. Given, the suite proves `kill` ends the
   * whole group (a grandchild included); `localPidAlive` answers for this machine.
   */
  pidAlive?: (pid: number) => boolean | Promise<boolean>;
}

export type Factory<T> = () => T | Promise<T>;
