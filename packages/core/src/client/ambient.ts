import { AsyncLocalStorage } from "node:async_hooks";
import type { ClientChannel } from "./channel.js";

const current = new AsyncLocalStorage<ClientChannel>();

/**
 * Runs `run` with `client` as the client of every tool call made inside it. A server (MCP
 * `serve`) uses it to hand each call the client that made it, as it hands it that client's
 * approvals (`runWithApprovalHandler`).
 */
export function runWithClient<T>(client: ClientChannel, run: () => T): T {
  return current.run(client, run);
}

/** The client of the current tool call, or undefined when none is attached (a library call). */
export function currentClient(): ClientChannel | undefined {
  return current.getStore();
}

/** The client of the current call; without one, an error naming `tool` and why. */
export function requireClient(tool: string): ClientChannel {
  const client = current.getStore();
  if (!client)
    throw new Error(
      `${tool} needs to ask its MCP client, and this call has none: call it through an MCP server (clawtools serve)`,
    );
  return client;
}
