import { type Static, Type } from "@clawtools/core";

/** `config.nodes`: which node host the tool talks to. Without one the tool is left out. */
export const NodesConfigSchema = Type.Object(
  {
    /** "local": this machine as a node. */
    host: Type.Optional(Type.Union([Type.Literal("local"), Type.Literal("none")])),
    /** The local node's id (default "local"). */
    nodeId: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);
export type NodesConfig = Static<typeof NodesConfigSchema>;
