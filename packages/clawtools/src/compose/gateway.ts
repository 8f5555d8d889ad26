import path from "node:path";
import type { ClawtoolsPlugin, ToolContext } from "@clawtools/core";
import { gatewayMessagingPlugin } from "./gateway-channel.js";
import { gatewayAutomationPlugin } from "./gateway-cron.js";
import { gatewaySessionsPlugin } from "./gateway-sessions.js";
import { BundleConfigError } from "./errors.js";

/** Where the Gateway is and how to authenticate (`gateway`, `gatewayToken` of the bundle config). */
export interface GatewayOptions {
  gateway?: string;
  gatewayToken?: string;
  /** The version the client reports to the Gateway. */
  clientVersion?: string;
  /** How long a Gateway that answers "starting" is dialled again (default: CLAWTOOLS_GATEWAY_WAIT_S, else 60 s). */
  gatewayWaitMs?: number;
}

/**
 * How long the start waits for a Gateway that answers "starting" (an unreachable one fails at
 * once): CLAWTOOLS_GATEWAY_WAIT_S seconds (default 60).
 */
function gatewayStartWaitMs(): number {
  const given = process.env.CLAWTOOLS_GATEWAY_WAIT_S?.trim();
  const seconds = given ? Number(given) : Number.NaN;
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 60_000;
}

/** The sections `serve --gateway` runs through the Gateway (when installed); every other one stays embedded. */
export const GATEWAY_SECTIONS = ["nodes", "sessions", "automation", "messaging"] as const;

/** Where the device key that signs the Gateway's challenge is kept (one per state directory). */
export const gatewayIdentityFile = (stateDir: string) =>
  path.join(stateDir, "gateway", "device-identity.pem");

/**
 * `gateway`: connects to the Gateway (token from `gatewayToken` or OPENCLAW_GATEWAY_TOKEN),
 * fails the start with the Gateway's own reason when it cannot, and returns the plugins that take
 * the sections' places over one connection: nodes (the Gateway's node.* methods), sessions,
 * automation (cron / automations forwarded, its gateway tool kept) and messaging when those
 * sections are installed. It says which sections go through the Gateway and which stay embedded.
 */
export async function gatewayPlugins(
  options: GatewayOptions,
  context: ToolContext,
  /** The sections chosen so far (each section's implementation, before any is registered). */
  sections: readonly ClawtoolsPlugin[],
  log: (line: string) => void,
): Promise<{
  nodes: ClawtoolsPlugin;
  sessions?: ClawtoolsPlugin;
  automation?: ClawtoolsPlugin;
  messaging?: ClawtoolsPlugin;
}> {
  const url = options.gateway;
  if (!url) throw new Error("gatewayPlugins needs a gateway URL");
  const token = options.gatewayToken ?? (process.env.OPENCLAW_GATEWAY_TOKEN || undefined);
  if (!context.stateDir) throw new Error("--gateway needs a state directory for its device key");
  const [
    { GatewayClient, GatewayNodeHost, connectWithRetry, loadOrCreateDeviceIdentity },
    { createNodesPlugin },
  ] = await Promise.all([import("@clawtools/gateway"), import("@clawtools/nodes")]);
  const client = new GatewayClient({
    url,
    ...(token ? { token } : {}),
    identity: loadOrCreateDeviceIdentity(gatewayIdentityFile(context.stateDir)),
    clientVersion: options.clientVersion ?? "0.0.0",
    displayName: "clawtools serve",
    log: (line) => log(`[clawtools] ${line}`),
  });
  let version: string;
  try {
    // a Gateway that says it is starting is dialled again, within a bound
    const waitMs = options.gatewayWaitMs ?? gatewayStartWaitMs();
    version = (
      await connectWithRetry(client, {
        waitMs,
        onRetry: (error, pause, attempt) =>
          log(
            `[clawtools] gateway ${url}: ${error.message}; retrying in ${(pause / 1000).toFixed(1)} s (attempt ${attempt + 1}, giving up after ${Math.round(waitMs / 1000)} s)`,
          ),
      })
    ).server.version;
  } catch (error) {
    await client.close();
    throw new BundleConfigError(
      `--gateway ${url}: ${(error as Error).message}${token ? "" : " (no token given: --gateway-token or OPENCLAW_GATEWAY_TOKEN)"}`,
    );
  }
  const automation = sections.find((p) => p.section === "automation");
  let forwarded: ClawtoolsPlugin | undefined;
  let messaging: ClawtoolsPlugin | undefined;
  let sessions: ClawtoolsPlugin | undefined;
  let sessionsAgent: string | undefined;
  try {
    if (sections.some((p) => p.section === "sessions")) {
      const wired = await gatewaySessionsPlugin(client);
      sessions = wired.plugin;
      sessionsAgent = wired.agentId;
    }
    if (automation) forwarded = await gatewayAutomationPlugin(client, automation);
    if (sections.some((p) => p.section === "messaging")) messaging = await gatewayMessagingPlugin(client);
  } catch (error) {
    await client.close();
    throw error;
  }
  const through = GATEWAY_SECTIONS.filter(
    (s) =>
      s === "nodes" ||
      (s === "sessions" && sessions) ||
      (s === "automation" && forwarded) ||
      (s === "messaging" && messaging),
  );
  const embedded = [
    ...new Set(
      sections.flatMap((p) =>
        p.section && !(through as readonly string[]).includes(p.section) ? [p.section] : [],
      ),
    ),
  ];
  log(
    `[clawtools] gateway ${url} (OpenClaw ${version}): through the Gateway: ${through.join(", ")}; embedded: ${embedded.join(", ") || "none"}${sessionsAgent ? `; sessions act as the Gateway's agent ${sessionsAgent}` : ""}`,
  );
  // the nodes plugin owns the connection: the toolset's dispose closes it once
  const nodes = createNodesPlugin({ nodeHost: new GatewayNodeHost({ client, ownsClient: true }) });
  return {
    nodes,
    ...(sessions ? { sessions } : {}),
    ...(forwarded ? { automation: forwarded } : {}),
    ...(messaging ? { messaging } : {}),
  };
}
