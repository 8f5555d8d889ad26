import { randomUUID } from "node:crypto";
import type { NodeHost, NodeInfo, PairingRequest } from "@clawtools/core/contracts";
import type { GatewayClient } from "./client.js";
import { GatewayError, isGatewayError } from "./errors.js";

/** A node as the Gateway lists it (`node.list` / `node.describe`); only what NodeInfo needs is read. */
interface GatewayNode {
  nodeId?: unknown;
  displayName?: unknown;
  platform?: unknown;
  connected?: unknown;
  paired?: unknown;
  caps?: unknown;
  commands?: unknown;
  [key: string]: unknown;
}

interface GatewayPairingRequest {
  requestId?: unknown;
  nodeId?: unknown;
  displayName?: unknown;
  ts?: unknown;
  createdAtMs?: unknown;
  requestedAtMs?: unknown;
  [key: string]: unknown;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === "string") : []);

function toNodeInfo(node: GatewayNode): NodeInfo {
  if (typeof node.nodeId !== "string") throw new Error("gateway answered a node without a nodeId");
  return {
    nodeId: node.nodeId,
    displayName: typeof node.displayName === "string" ? node.displayName : node.nodeId,
    platform: typeof node.platform === "string" ? node.platform : "unknown",
    connected: node.connected === true,
    paired: node.paired === true,
    caps: strings(node.caps),
    commands: strings(node.commands),
  };
}

function toPairingRequest(request: GatewayPairingRequest): PairingRequest {
  if (typeof request.requestId !== "string" || typeof request.nodeId !== "string")
    throw new Error("gateway answered a pairing request without requestId / nodeId");
  const at = [request.requestedAtMs, request.createdAtMs, request.ts].find((v) => typeof v === "number");
  return {
    requestId: request.requestId,
    nodeId: request.nodeId,
    ...(typeof request.displayName === "string" ? { displayName: request.displayName } : {}),
    requestedAt: new Date(typeof at === "number" ? at : Date.now()).toISOString(),
  };
}

/**
 * Rethrows the Gateway's refusal with the ids it was about added when its text lacks them (9.6
 * answers "unknown nodeId" / "unknown requestId" without the id), code and details kept.
 */
function naming(ids: Record<string, string>): (error: unknown) => never {
  return (error) => {
    if (!isGatewayError(error)) throw error;
    const missing = Object.entries(ids).filter(([, id]) => !error.message.includes(id));
    if (missing.length === 0) throw error;
    const prefix = `gateway ${error.method}: ${error.code}: `;
    const text = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    throw new GatewayError(
      error.code,
      `${text} (${missing.map(([what, id]) => `${what} ${JSON.stringify(id)}`).join(", ")})`,
      {
        details: error.details,
        retryable: error.retryable,
        ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
        ...(error.method !== undefined ? { method: error.method } : {}),
      },
    );
  };
}

export interface GatewayNodeHostOptions {
  client: GatewayClient;
  /** Closes the client on dispose (when the host owns it). */
  ownsClient?: boolean;
}

/**
 * NodeHost over the Gateway's `node.*` methods: the nodes paired with that Gateway, on any
 * machine. The Gateway enforces its own command allowlist; its refusal reaches the caller as is.
 */
export class GatewayNodeHost implements NodeHost {
  readonly #client: GatewayClient;
  readonly #owns: boolean;

  constructor(options: GatewayNodeHostOptions) {
    this.#client = options.client;
    this.#owns = options.ownsClient ?? false;
  }

  async list(): Promise<NodeInfo[]> {
    const answer = await this.#client.request<{ nodes?: GatewayNode[] }>("node.list", {});
    return (answer.nodes ?? []).map(toNodeInfo);
  }

  async describe(nodeId: string): Promise<NodeInfo & Record<string, unknown>> {
    const answer = await this.#client
      .request<GatewayNode & { node?: GatewayNode }>("node.describe", { nodeId })
      .catch(naming({ nodeId }));
    const node = answer.node ?? answer;
    return { ...node, ...toNodeInfo(node) };
  }

  async invoke(
    nodeId: string,
    command: string,
    params: Record<string, unknown>,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<unknown> {
    // the Gateway dedupes on idempotencyKey; the socket waits a little longer than the node may
    const answer = await this.#client
      .request<{ ok?: boolean; payload?: unknown; payloadJSON?: unknown }>(
        "node.invoke",
        { nodeId, command, params, timeoutMs: options.timeoutMs, idempotencyKey: randomUUID() },
        { timeoutMs: options.timeoutMs + 5_000, ...(options.signal ? { signal: options.signal } : {}) },
      )
      .catch(naming({ nodeId, command }));
    if (answer.payload !== undefined) return answer.payload;
    if (typeof answer.payloadJSON === "string") return JSON.parse(answer.payloadJSON);
    return answer;
  }

  async pending(): Promise<PairingRequest[]> {
    const answer = await this.#client.request<{ pending?: GatewayPairingRequest[] }>("node.pair.list", {});
    return (answer.pending ?? []).map(toPairingRequest);
  }

  async approve(requestId: string): Promise<{ ok: true; nodeId: string }> {
    return this.#decide("node.pair.approve", requestId);
  }

  async reject(requestId: string): Promise<{ ok: true; nodeId: string }> {
    return this.#decide("node.pair.reject", requestId);
  }

  async #decide(method: string, requestId: string): Promise<{ ok: true; nodeId: string }> {
    const answer = await this.#client
      .request<{ nodeId?: unknown; node?: { nodeId?: unknown } }>(method, { requestId })
      .catch(naming({ requestId }));
    const nodeId = typeof answer.nodeId === "string" ? answer.nodeId : answer.node?.nodeId;
    if (typeof nodeId !== "string") throw new Error(`gateway ${method} answered without the node id`);
    return { ok: true, nodeId };
  }

  async dispose(): Promise<void> {
    if (this.#owns) await this.#client.close();
  }
}
