import {
  type AgentTool,
  type AgentToolResult,
  jsonResult,
  type ToolContext,
  ToolInputError,
} from "@clawtools/core";
import { CronValidationError, isHttpUrl } from "../cron/normalize.js";
import { type CronService, LIST_MAX_LIMIT, UnknownJobError } from "../cron/service.js";
import { compactCronJob } from "./cron-compact.js";
import { contextBlock, intParam, isObject, notFoundText, type Params, recoverFlat } from "./cron-params.js";
import { type Action, cronSchema, RUNS_MAX_LIMIT, TIMEOUT_MAX_MS } from "./cron-schema.js";

export { CRON_ACTIONS, cronSchema } from "./cron-schema.js";
export { contextBlock, notFoundText, recoverFlat } from "./cron-params.js";

export interface CronToolOptions {
  /** Started on first use. */
  service: () => Promise<CronService>;
  /** Reads a session's recent messages for `contextMessages`. */
  history?: (sessionKey: string, limit: number) => Promise<Array<{ role: string; content: unknown }>>;
  /** The tool's name: `cron`, or `automations` (OpenClaw 9.6's name). */
  name?: string;
}

const DESCRIPTION = `Manage scheduled jobs (status/list/get/add/update/remove/run/runs/wake); list answers compact summaries with timing (use nextOffset for the next page), get jobId the full schedule, payload and delivery; run enqueues and answers at once with a runId, the outcome shows in runs. Jobs run in this process: a systemEvent queues text into a session (sessionTarget "main"); an agentTurn runs an agent turn (sessionTarget "isolated", "current" or "session:<id>") and delivers the result (delivery.mode none | announce | webhook). Schedules: {kind:"at", at:ISO-8601} (no zone = UTC), {kind:"every", everyMs (>= 1000), anchorMs?}, {kind:"cron", expr, tz?, staggerMs?} (no tz = the host's zone).`;

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
        const page = await service.list({
          includeDisabled: p.includeDisabled === true,
          ...(offset !== undefined ? { offset } : {}),
          ...(limit !== undefined ? { limit } : {}),
        });
        // compact summaries, as OpenClaw 9.6 lists them; get answers the full job
        return jsonResult({
          ...page,
          // a Gateway answers compact jobs already (no state): those pass as they are
          jobs: page.jobs.map((job) =>
            "state" in job ? compactCronJob(job, service.defaultAgentId ?? "main") : job,
          ),
          // 9.6 says which inventory the page counts: "gateway" (every job) for a turn with
          // management authority, else "caller" with a scopeHint. This owner-only tool lists the
          // whole store (a Gateway answers an operator connection unnarrowed too): always "gateway"
          scope: "gateway",
        });
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
