import { type Static, Type } from "@clawtools/core";

/** `config.automation`: the scheduler, webhook delivery and the gateway tool's switches. */
export const AutomationConfigSchema = Type.Object(
  {
    cron: Type.Optional(
      Type.Object(
        {
          /** The scheduler timer runs (OpenClaw `cron.enabled`; default true). */
          enabled: Type.Optional(Type.Boolean()),
          /** Runs at the same time (OpenClaw `cron.maxConcurrentRuns`; default 1). */
          maxConcurrentRuns: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
          /**
           * Runs at the same time across every process on a shared store where each process fires
           * (PostgreSQL); unset: no cap beyond each process's maxConcurrentRuns.
           */
          clusterMaxConcurrentRuns: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
          /** A run missed while the process was down: "once" runs it once on start (default), "off" skips it. */
          catchUp: Type.Optional(Type.Union([Type.Literal("off"), Type.Literal("once")])),
          /** The agent `main` jobs belong to (default "main"). */
          defaultAgentId: Type.Optional(Type.String({ minLength: 1 })),
          /** An agentTurn's limit when its payload sets none (default 600). */
          agentTurnTimeoutSeconds: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
          /** How long the leader lease lasts unless renewed, in ms (default 30,000; renewed every third of it). */
          leaderLeaseMs: Type.Optional(Type.Integer({ minimum: 300, maximum: 3_600_000 })),
          /** How long a claimed run may hold its job before it counts as stuck, in ms (default 2 h). */
          claimLeaseMs: Type.Optional(Type.Integer({ minimum: 1_000, maximum: 7 * 24 * 3_600_000 })),
          /** How often a follower probes the leader lease and the leader sweeps claims of dead processes, in ms (default 1,000). */
          probeMs: Type.Optional(Type.Integer({ minimum: 50, maximum: 60_000 })),
        },
        { additionalProperties: false },
      ),
    ),
    webhook: Type.Optional(
      Type.Object(
        {
          /** Allow webhook targets on private, loopback and link-local addresses (default false). */
          allowPrivateNetwork: Type.Optional(Type.Boolean()),
          /** Hostnames allowed even when they resolve to private addresses. */
          allowedHostnames: Type.Optional(Type.Array(Type.String())),
          /** Attempts per delivery (default 3). */
          attempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
          /** Wait before the second attempt, doubled each time (default 1,000 ms). */
          retryDelayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
          /** Per attempt (default 10,000 ms). */
          timeoutMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 120_000 })),
        },
        { additionalProperties: false },
      ),
    ),
    gateway: Type.Optional(
      Type.Object(
        {
          /** config.apply / config.patch (default false: read-only). */
          allowConfigWrites: Type.Optional(Type.Boolean()),
          /** restart (default false). */
          allowRestart: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type AutomationConfig = Static<typeof AutomationConfigSchema>;
