import {
  type AgentTool,
  type AgentToolResult,
  jsonResult,
  optionalStringEnum,
  stringEnum,
  type ToolContext,
  ToolInputError,
  Type,
} from "@clawtools/core";
import { CronValidationError, isHttpUrl } from "../cron/normalize.js";
import { type CronService, LIST_MAX_LIMIT, UnknownJobError } from "../cron/service.js";

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
const TIMEOUT_MAX_MS = 600_000;
const RUNS_MAX_LIMIT = 200;
type Action = (typeof CRON_ACTIONS)[number];

const scheduleSchema = Type.Object(
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

const payloadSchema = Type.Object(
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

const deliverySchema = Type.Object(
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

const jobProperties = {
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

type Params = Record<string, unknown>;

/** OpenClaw 9.6's answers for an id that names no job (`cron.get` keeps the older wording). */
export const notFoundText = (id: string, tool: string, action: string) =>
  tool === "automations" && action !== "get"
    ? `Automation not found: ${id}. List automations and retry with a current job id.`
    : `cron job not found: ${id}. List automations and retry with a current job id.`;

/** An optional integer parameter inside [min, max], refused (not clamped) outside it. */
function intParam(p: Params, key: string, min: number, max: number): number | undefined {
  const value = p[key];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max)
    throw new ToolInputError(
      `${key} must be an integer from ${min} to ${max} (got ${JSON.stringify(value)})`,
    );
  return value;
}

/** Top-level keys a model may send instead of `job` / `patch` (OpenClaw issue #11310). */
const JOB_KEYS = [
  "name",
  "schedule",
  "sessionTarget",
  "wakeMode",
  "payload",
  "delivery",
  "enabled",
  "description",
  "deleteAfterRun",
  "agentId",
  "sessionKey",
  "failureAlert",
] as const;
const PAYLOAD_KEYS = [
  "message",
  "text",
  "model",
  "fallbacks",
  "toolsAllow",
  "thinking",
  "timeoutSeconds",
  "lightContext",
  "allowUnsafeExternalContent",
] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `job` / `patch`, or the same rebuilt from top-level keys when the model flattened it. */
export function recoverFlat(p: Params, key: "job" | "patch"): Record<string, unknown> | undefined {
  const given = p[key];
  if (isObject(given) && Object.keys(given).length > 0) return given;
  const out: Record<string, unknown> = {};
  for (const k of JOB_KEYS) if (p[k] !== undefined) out[k] = p[k];
  const payloadBits: Record<string, unknown> = {};
  // `text` is wake's own parameter; it joins a payload only when other job keys are present
  for (const k of PAYLOAD_KEYS) if (p[k] !== undefined) payloadBits[k] = p[k];
  if (
    Object.keys(payloadBits).length > 0 &&
    (Object.keys(out).length > 0 || payloadBits.message !== undefined)
  ) {
    out.payload = { ...payloadBits, ...(isObject(out.payload) ? out.payload : {}) };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

const CONTEXT_LINE_MAX = 220;
const CONTEXT_TOTAL_MAX = 700;

/** `\n\nRecent context:\n- User: …` from up to `count` recent user/assistant lines (≤220 chars each, ≤700 in all). */
export function contextBlock(messages: Array<{ role: string; content: unknown }>, count: number): string {
  const lines: string[] = [];
  let total = 0;
  const textOf = (content: unknown): string =>
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content
            .map((block) => (isObject(block) && block.type === "text" ? String(block.text ?? "") : ""))
            .join(" ")
        : "";
  for (const message of messages.filter((m) => m.role === "user" || m.role === "assistant").slice(-count)) {
    let text = textOf(message.content).replace(/\s+/g, " ").trim();
    if (!text) continue;
    if (text.length > CONTEXT_LINE_MAX) text = `${text.slice(0, CONTEXT_LINE_MAX - 1)}…`;
    const line = `- ${message.role === "user" ? "User" : "Assistant"}: ${text}`;
    if (total + line.length > CONTEXT_TOTAL_MAX) break;
    lines.push(line);
    total += line.length;
  }
  return lines.length > 0 ? `\n\nRecent context:\n${lines.join("\n")}` : "";
}

export interface CronToolOptions {
  /** Started on first use. */
  service: () => Promise<CronService>;
  /** Reads a session's recent messages for `contextMessages`. */
  history?: (sessionKey: string, limit: number) => Promise<Array<{ role: string; content: unknown }>>;
  /** The tool's name: `cron`, or `automations` (OpenClaw 9.6's name). */
  name?: string;
}

const DESCRIPTION = `Manage scheduled jobs (status/list/get/add/update/remove/run/runs/wake); run enqueues and answers at once with a runId, the outcome shows in runs. Jobs run in this process: a systemEvent queues text into a session (sessionTarget "main"); an agentTurn runs an agent turn (sessionTarget "isolated", "current" or "session:<id>") and delivers the result (delivery.mode none | announce | webhook). Schedules: {kind:"at", at:ISO-8601} (no zone = UTC), {kind:"every", everyMs (>= 1000), anchorMs?}, {kind:"cron", expr, tz?, staggerMs?} (no tz = the host's zone).`;

export function createCronTool(
  ctx: ToolContext,
  options: CronToolOptions,
): AgentTool<typeof cronSchema> & { ownerOnly: true } {
  const jobIdOf = (p: Params): string => {
    const id = [p.jobId, p.id].find((v): v is string => typeof v === "string" && v.trim() !== "");
    if (!id) throw new ToolInputError("jobId required (id accepted for backward compatibility)");
    return id.trim();
  };
  const checkWebhook = (value: Record<string, unknown>) => {
    const delivery = value.delivery;
    if (
      isObject(delivery) &&
      delivery.mode === "webhook" &&
      !isHttpUrl(typeof delivery.to === "string" ? delivery.to.trim() : undefined)
    )
      throw new ToolInputError('delivery.mode="webhook" requires delivery.to to be a valid http(s) URL');
  };

  async function run(p: Params): Promise<AgentToolResult<unknown>> {
    const action = p.action as Action;
    if (p.timeoutMs !== undefined) {
      const t = p.timeoutMs;
      if (typeof t !== "number" || !Number.isFinite(t) || t < 0 || t > TIMEOUT_MAX_MS)
        throw new ToolInputError(`timeoutMs must be from 0 to ${TIMEOUT_MAX_MS} (got ${JSON.stringify(t)})`);
    }
    const offset = intParam(p, "offset", 0, Number.MAX_SAFE_INTEGER);
    const service = await options.service();
    switch (action) {
      case "status":
        return jsonResult(await service.status());
      case "list": {
        const limit = intParam(p, "limit", 1, LIST_MAX_LIMIT);
        return jsonResult(
          await service.list({
            includeDisabled: p.includeDisabled === true,
            ...(offset !== undefined ? { offset } : {}),
            ...(limit !== undefined ? { limit } : {}),
          }),
        );
      }
      case "get":
        return jsonResult(await service.get(jobIdOf(p)));
      case "add": {
        const job = recoverFlat(p, "job");
        if (!job) throw new ToolInputError("job required");
        checkWebhook(job);
        const count = Math.min(10, Math.max(0, Math.floor(Number(p.contextMessages ?? 0))));
        if (count > 0 && ctx.sessionKey && options.history && isObject(job.payload)) {
          const payload = job.payload as Record<string, unknown>;
          const kind = payload.kind ?? (payload.message !== undefined ? "agentTurn" : "systemEvent");
          if (kind === "systemEvent" && typeof payload.text === "string") {
            const block = contextBlock(await options.history(ctx.sessionKey, count), count);
            job.payload = { ...payload, text: `${payload.text}${block}` };
          }
        }
        return jsonResult(
          await service.add(job, {
            ...(ctx.agentId ? { agentId: ctx.agentId } : {}),
            ...(ctx.sessionKey ? { sessionKey: ctx.sessionKey } : {}),
          }),
        );
      }
      case "update": {
        const id = jobIdOf(p);
        // the seeds send `patch`, OpenClaw 9.6 `job`: either, but not two different ones
        if (isObject(p.patch) && isObject(p.job) && JSON.stringify(p.patch) !== JSON.stringify(p.job))
          throw new ToolInputError("update takes patch or job (OpenClaw 9.6's name for it), not both");
        const patch =
          isObject(p.job) && Object.keys(p.job).length > 0 && !isObject(p.patch)
            ? p.job
            : recoverFlat(p, "patch");
        if (!patch) throw new ToolInputError("patch required");
        checkWebhook(patch);
        return jsonResult(await service.update(id, patch));
      }
      case "remove": {
        const id = jobIdOf(p);
        const removed = await service.remove(id);
        if (!removed.removed) throw new UnknownJobError(id);
        return jsonResult(removed);
      }
      case "run":
        return jsonResult(await service.run(jobIdOf(p), p.runMode === "due" ? "due" : "force"));
      case "runs": {
        const limit = intParam(p, "limit", 1, RUNS_MAX_LIMIT);
        return jsonResult(
          await service.runs(jobIdOf(p), {
            ...(offset !== undefined ? { offset } : {}),
            ...(limit !== undefined ? { limit } : {}),
          }),
        );
      }
      case "wake": {
        const text = typeof p.text === "string" ? p.text.trim() : "";
        if (!text) throw new ToolInputError("text required");
        return jsonResult(await service.wake(text, ctx.agentId));
      }
      default:
        throw new ToolInputError(`Unknown action: ${String(action).slice(0, 40)}`);
    }
  }

  const name = options.name ?? "cron";
  return {
    name,
    label: name === "cron" ? "Cron" : "Automations",
    description: DESCRIPTION,
    parameters: cronSchema,
    ownerOnly: true,
    async execute(_id, params) {
      const p = params as Params;
      try {
        return await run(p);
      } catch (error) {
        const action = String(p.action);
        // get, remove and run of an id that names no job: OpenClaw 9.6's "not found" error
        if (error instanceof UnknownJobError && ["get", "remove", "run"].includes(action))
          throw new ToolInputError(notFoundText(error.jobId, name, action));
        if (error instanceof CronValidationError) {
          const message = /^unknown cron job id:/.test(error.message)
            ? error.message
            : `invalid cron.${action} params: ${error.message}`;
          throw new ToolInputError(message);
        }
        if (error instanceof RangeError && /CronPattern/.test(error.message))
          throw new ToolInputError(`invalid cron.${String(p.action)} params: ${error.message}`);
        throw error;
      }
    },
  };
}
