/**
 * Where node commands run. The embedded `local` host is this machine; a Gateway-backed host
 * would speak OpenClaw's `node.*` methods. Everything is async and keyed by node id, so a
 * registry in PostgreSQL or Redis with an invoke queue can implement it unchanged.
 */
export interface NodeInfo {
  nodeId: string;
  displayName: string;
  platform: string;
  connected: boolean;
  paired: boolean;
  caps: string[];
  commands: string[];
}

export interface PairingRequest {
  requestId: string;
  nodeId: string;
  displayName?: string;
  requestedAt: string;
}

export interface NodeHost {
  list(): Promise<NodeInfo[]>;
  describe(nodeId: string): Promise<NodeInfo & Record<string, unknown>>;
  /** Runs a command on a node; a command the node does not advertise is refused, never faked. */
  invoke(
    nodeId: string,
    command: string,
    params: Record<string, unknown>,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<unknown>;
  pending(): Promise<PairingRequest[]>;
  approve(requestId: string): Promise<{ ok: true; nodeId: string }>;
  reject(requestId: string): Promise<{ ok: true; nodeId: string }>;
  dispose?(): Promise<void>;
}
