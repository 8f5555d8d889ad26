import { ToolInputError } from "@clawtools/core";
import type { NodeHost, NodeInfo } from "../host.js";

export const fail = (message: string): never => {
  throw new ToolInputError(message);
};

/** The node a call names (by id or display name), or the only connected one when it names none. */
export async function findNode(host: NodeHost, query: string | undefined): Promise<NodeInfo> {
  const nodes = await host.list();
  if (!query) {
    const connected = nodes.filter((n) => n.connected);
    if (connected.length === 1) return connected[0]!;
    return fail("node required");
  }
  const q = query.trim().toLowerCase();
  const matches = nodes.filter((n) => n.nodeId.toLowerCase() === q || n.displayName.toLowerCase() === q);
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1)
    return fail(`ambiguous node: ${query} (matches: ${matches.map((n) => n.nodeId).join(", ")})`);
  return fail(
    `unknown node: ${query.slice(0, 60)} (known: ${nodes.map((n) => n.nodeId).join(", ") || "none"})`,
  );
}
