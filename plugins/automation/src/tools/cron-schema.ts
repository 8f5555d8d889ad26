import { optionalStringEnum, stringEnum, Type } from "@clawtools/core";
import { LIST_MAX_LIMIT } from "../cron/service.js";

// The cron tool's actions and parameter schema (OpenClaw's, with its limits).

export const CRON_ACTIONS = [
  "status",
  "list",
  "get",
  "add",
  "update",
  "remove",
  "run",
  "runs",
  "wake",
] as const;
export const TIMEOUT_MAX_MS = 600_000;
export const RUNS_MAX_LIMIT = 200;
export type Action = (typeof CRON_ACTIONS)[number];

export const scheduleSchema = Type.Object(
  {
    kind: optionalStringEnum(["at", "every", "cron"] as const),
    at: Type.Optional(Type.String({ description: "at: ISO-8601 time (no zone = UTC)." })),
    everyMs: Type.Optional(Type.Number({ description: "every: interval in ms (at least 1,000)." })),
    anchorMs: Type.Optional(
      Type.Number({ description: "every: epoch ms the intervals count from (default: creation)." }),
    ),
    expr: Type.Optional(Type.String({ description: "cron: 5- or 6-field expression." })),
    tz: Type.Optional(Type.String({ description: "cron: IANA time zone (default: the host's)." })),
    staggerMs: Type.Optional(Type.Number({ description: "cron: spread runs over this window (0 = exact)." })),
  },
  { additionalProperties: true },
);

export const payloadSchema = Type.Object(
  {
    kind: optionalStringEnum(["systemEvent", "agentTurn"] as const),
    text: Type.Optional(Type.String({ description: "systemEvent: the text queued into the session." })),
    message: Type.Optional(Type.String({ description: "agentTurn: the prompt of the agent turn." })),
    model: Type.Optional(Type.String()),
    thinking: Type.Optional(Type.String()),
    timeoutSeconds: Type.Optional(Type.Number()),
    lightContext: Type.Optional(Type.Boolean()),
    allowUnsafeExternalContent: Type.Optional(Type.Boolean()),
    fallbacks: Type.Optional(Type.Array(Type.String())),
    toolsAllow: Type.Optional(Type.Unknown({ description: "Tool names the run may use (null clears)." })),
  },
  { additionalProperties: true },
);

export const deliverySchema = Type.Object(
  {
    mode: optionalStringEnum(["none", "announce", "webhook"] as const),
    channel: Type.Optional(Type.String()),
    to: Type.Optional(Type.String({ description: "announce: channel target; webhook: the http(s) URL." })),
    bestEffort: Type.Optional(Type.Boolean()),
    accountId: Type.Optional(Type.String()),
    failureDestination: Type.Optional(
      Type.Object(
        {
          channel: Type.Optional(Type.String()),
          to: Type.Optional(Type.String()),
          accountId: Type.Optional(Type.String()),
          mode: optionalStringEnum(["announce", "webhook"] as const),
        },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: true },
);

export const jobProperties = {
  name: Type.Optional(Type.String()),
  schedule: Type.Optional(scheduleSchema),
  sessionTarget: Type.Optional(Type.String({ description: "main | isolated | current | session:<id>" })),
  wakeMode: optionalStringEnum(["now", "next-heartbeat"] as const),
  payload: Type.Optional(payloadSchema),
  delivery: Type.Optional(deliverySchema),
  agentId: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  enabled: Type.Optional(Type.Boolean()),
  deleteAfterRun: Type.Optional(Type.Boolean()),
  sessionKey: Type.Optional(Type.String()),
  failureAlert: Type.Optional(
    Type.Unknown({
      description: "{after, channel, to, cooldownMs, mode, accountId} or false",
      type: "object",
    }),
  ),
};

export const cronSchema = Type.Object(
  {
    action: stringEnum(CRON_ACTIONS, { description: "What to do." }),
    gatewayUrl: Type.Optional(Type.String()),
    gatewayToken: Type.Optional(Type.String()),
    timeoutMs: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: TIMEOUT_MAX_MS,
        description: "Gateway call timeout (accepted for compatibility; every action here answers at once).",
      }),
    ),
    includeDisabled: Type.Optional(Type.Boolean()),
    job: Type.Optional(Type.Object(jobProperties, { additionalProperties: true })),
    jobId: Type.Optional(Type.String()),
    id: Type.Optional(Type.String({ description: "Alias of jobId." })),
    patch: Type.Optional(
      Type.Object(jobProperties, {
        additionalProperties: true,
        description: "update: the fields to change (OpenClaw 9.6 sends them as `job`; both are accepted).",
      }),
    ),
    text: Type.Optional(Type.String({ description: "wake: the system event text." })),
    mode: optionalStringEnum(["now", "next-heartbeat"] as const),
    runMode: optionalStringEnum(["due", "force"] as const),
    contextMessages: Type.Optional(Type.Number({ minimum: 0, maximum: 10 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, description: "list / runs: where the page starts." })),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: LIST_MAX_LIMIT,
        description:
          "list: jobs per page (default 100, at most 500); runs: entries (default 50, at most 200).",
      }),
    ),
  },
  { additionalProperties: true },
);
