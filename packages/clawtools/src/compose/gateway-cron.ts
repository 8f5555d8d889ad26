import type { CronService } from "@clawtools/automation";
import type { ClawtoolsPlugin, PluginToolRegistration, ToolContext } from "@clawtools/core";
import type { GatewayClient } from "@clawtools/gateway";
import { isLazySectionPlugin } from "../lazy.js";

/** The automation section's tool names that `serve --gateway` forwards (OpenClaw 9.6 calls it automations). */
const CRON_TOOLS = ["cron", "automations"];

const DESCRIPTION = `Manage the OpenClaw Gateway's scheduled jobs (status/list/get/add/update/remove/run/runs/wake): the Gateway stores, schedules and runs them, and its refusals come back as they are. Schedules: {kind:"at", at:ISO-8601}, {kind:"every", everyMs, anchorMs?}, {kind:"cron", expr, tz?}. A job needs name, schedule, sessionTarget ("main" for a systemEvent payload {kind:"systemEvent", text}; "isolated" for an agentTurn {kind:"agentTurn", message}) and wakeMode ("now" or "next-heartbeat").`;

/**
 * `serve --gateway`: the automation section with its cron / automations tools answered by the
 * Gateway's `cron.*` and `wake` methods. The tool itself (schema, flattened-argument recovery,
 * input checks) is the automation section's own, over `GatewayCron` instead of the embedded
 * scheduler, so no job is stored or scheduled in this process. The section's other tool
 * (gateway: this app's configuration) stays as it was.
 */
export async function gatewayAutomationPlugin(
  client: GatewayClient,
  automation: ClawtoolsPlugin,
): Promise<ClawtoolsPlugin> {
  const [loaded, { createCronTool }, { GatewayCron }] = await Promise.all([
    isLazySectionPlugin(automation) ? automation.load() : Promise.resolve(automation),
    import("@clawtools/automation"),
    import("@clawtools/gateway"),
  ]);
  const cron = new GatewayCron({ client });
  // GatewayCron has every method the cron tool calls on the embedded CronService
  const service = async () => cron as unknown as CronService;
  const forwarded = (registration: PluginToolRegistration): PluginToolRegistration => ({
    ...registration,
    factory: (ctx: ToolContext) =>
      registration.names.map((name) => ({
        ...createCronTool(ctx, { name, service }),
        description: DESCRIPTION,
      })),
  });
  const tools = loaded.tools.map((registration) =>
    registration.names.some((name) => CRON_TOOLS.includes(name)) ? forwarded(registration) : registration,
  );
  if (!tools.some((r) => r.names.includes("cron")))
    throw new Error(`--gateway: the automation section ${loaded.id} has no cron tool to forward`);
  return { ...loaded, tools };
}
