import type { ClawtoolsPlugin, PluginToolRegistration, ToolContext } from "@clawtools/core";
import type { GatewayClient } from "@clawtools/gateway";

/**
 * `serve --gateway`: the sessions section over the Gateway. Sessions, their transcripts and
 * agent runs are the Gateway's: sessions_list / sessions_history / session_status read
 * `sessions.*` and `chat.history`, and sessions_send starts a turn with `agent` and waits with
 * `agent.wait` (the Gateway's own model and tools run it). The run registry (which runs this
 * process started, for subagents / kill) stays embedded under the state directory, as the
 * Gateway keeps no record of clawtools' spawn bookkeeping.
 *
 * The tools act as the Gateway's default agent (`agents.list` defaultId) in its main session
 * when the caller's agent is one the Gateway does not have (serve's own `cli`): the Gateway
 * refuses a session of an unknown agent (`Unknown agent id "cli"`).
 */
export async function gatewaySessionsPlugin(
  client: GatewayClient,
): Promise<{ plugin: ClawtoolsPlugin; agentId: string }> {
  const [{ createSessionsPlugin }, { GatewayAgentRunner, GatewaySessionStore }] = await Promise.all([
    import("@clawtools/sessions"),
    import("@clawtools/gateway"),
  ]);
  const agents = await client.request<{
    defaultId?: string;
    mainKey?: string;
    agents?: Array<{ id: string }>;
  }>("agents.list", {});
  const agentId = agents.defaultId ?? "main";
  const known = new Set((agents.agents ?? []).map((a) => a.id));
  const asGatewayAgent = (ctx: ToolContext): ToolContext =>
    ctx.agentId && known.has(ctx.agentId)
      ? ctx
      : { ...ctx, agentId, sessionKey: `agent:${agentId}:${agents.mainKey ?? "main"}` };
  const sessions = createSessionsPlugin({
    store: new GatewaySessionStore({ client }),
    runner: new GatewayAgentRunner({ client }),
  });
  const tools = sessions.tools.map(
    (registration): PluginToolRegistration => ({
      ...registration,
      factory: (ctx: ToolContext) => registration.factory(asGatewayAgent(ctx)),
    }),
  );
  return { plugin: { ...sessions, tools }, agentId };
}
