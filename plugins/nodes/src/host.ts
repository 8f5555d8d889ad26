// The contract lives in core so a Gateway or database backend implements it without this section.
export type { NodeHost, NodeInfo, PairingRequest } from "@clawtools/core/contracts";

/** OpenClaw's refusal for a command a node does not offer. */
export const notSupported = (nodeId: string, command: string) =>
  `node command not allowed: node ${nodeId} does not support "${command}"`;
