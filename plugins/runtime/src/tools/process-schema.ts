import { stringEnum, Type } from "@clawtools/core";

// The process tool's actions and parameter schema.

export const ACTIONS = [
  "list",
  "poll",
  "log",
  "write",
  "send-keys",
  "submit",
  "paste",
  "kill",
  "clear",
  "remove",
] as const;

export const processSchema = Type.Object(
  {
    action: stringEnum(ACTIONS, { description: "Process action" }),
    sessionId: Type.Optional(Type.String({ description: "Session id for actions other than list" })),
    data: Type.Optional(Type.String({ description: "Data to write for write" })),
    keys: Type.Optional(
      Type.Array(Type.String(), {
        description: "Key tokens to send for send-keys (enter, up, C-c, M-x, ^D…)",
      }),
    ),
    hex: Type.Optional(Type.Array(Type.String(), { description: "Hex bytes to send for send-keys" })),
    literal: Type.Optional(Type.String({ description: "Literal string for send-keys" })),
    text: Type.Optional(Type.String({ description: "Text to paste for paste" })),
    bracketed: Type.Optional(Type.Boolean({ description: "Wrap paste in bracketed mode (default true)" })),
    eof: Type.Optional(Type.Boolean({ description: "Close stdin after write" })),
    offset: Type.Optional(Type.Number({ minimum: 0, description: "Log offset (0-based line)" })),
    limit: Type.Optional(Type.Number({ minimum: 0, description: "Log length (lines)" })),
    timeout: Type.Optional(
      Type.Number({
        minimum: 0,
        description:
          "For poll: wait up to this many milliseconds for new output or the exit, whichever comes first (max 120000)",
      }),
    ),
  },
  { additionalProperties: false },
);
export const KNOWN_ARGS = new Set(Object.keys(processSchema.properties));
