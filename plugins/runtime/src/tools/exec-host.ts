import type { ProcessHost } from "../process/host.js";

/**
 * Where a command runs when it does not run on this machine: a container or VM (`sandbox`),
 * a remote node (`node`), reached over SSH or any transport. Implement `run` and pass it in
 * the runtime options under `exec.hosts.sandbox` or `exec.hosts.node`. A host that also offers
 * `processes` runs every call as a process handle instead: yield windows, `background: true`,
 * the output limit with its head and tail, and the `process` tool then work on it as locally.
 */
export interface ExecHost {
  /** Background-capable runs on this host (see `ProcessHost`). */
  processes?: ProcessHost;
  run(
    command: string,
    options: {
      cwd?: string;
      /** Only what the call asked for (checked like local runs); the host adds its own base. */
      env: Record<string, string>;
      signal: AbortSignal;
      timeoutMs?: number;
      onData: (chunk: string) => void;
      /** The node id or name the call asked for (host=node). */
      node?: string;
    },
  ): Promise<{ exitCode: number | null; exitSignal?: string | null }>;
}
