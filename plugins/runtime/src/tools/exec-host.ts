/**
 * Where a command runs when `host` is not local: an SSH host, a container, a remote node…
 * Implement `run` and pass it in the runtime options under `exec.hosts.<name>`.
 */
export interface ExecHost {
  run(
    command: string,
    options: {
      cwd?: string;
      env: Record<string, string>;
      signal: AbortSignal;
      timeoutMs?: number;
      onData: (chunk: string) => void;
    },
  ): Promise<{ exitCode: number | null; exitSignal?: string | null }>;
}

/** Hosts that mean "this machine". */
export const LOCAL_HOSTS: ReadonlySet<string> = new Set(["auto", "local", "gateway"]);
