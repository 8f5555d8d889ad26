import type { ClawtoolsPlugin } from "@clawtools/core";
import type { GatewayClient } from "@clawtools/gateway";

/**
 * `serve --gateway`: the messaging section with a channel named "gateway" beside the configured
 * ones. Its sends go to the Gateway's `send`, its other actions to `message.action`; dryRun
 * stays local. With no channel configured here, the message tool uses it alone, so a Gateway
 * with no channel answers the model with its own "Channel is required" text.
 */
export async function gatewayMessagingPlugin(client: GatewayClient): Promise<ClawtoolsPlugin> {
  const [{ createMessagingPlugin }, { GatewayChannel }] = await Promise.all([
    import("@clawtools/messaging"),
    import("@clawtools/gateway"),
  ]);
  return createMessagingPlugin({ extraChannels: [new GatewayChannel({ client })] });
}
