import { delay } from "@clawtools/core/time";
import { GatewayClient } from "../src/client.js";
import { findOpenclaw, type RealGateway, startRealGateway } from "../src/testing/index.js";

export const openclaw = findOpenclaw();
/** Why the real-Gateway tests cannot run here, or undefined. */
export const skipReason = "skip" in openclaw ? openclaw.skip : undefined;
if (skipReason) console.warn(`[gateway tests skipped] ${skipReason}`);

// a boot takes 12-30 s, more under load; the first test file to boot pays it
export const BOOT_TIMEOUT_MS = 180_000;

export async function bootGateway(options: { config?: Record<string, unknown> } = {}): Promise<RealGateway> {
  if ("skip" in openclaw) throw new Error(openclaw.skip);
  return startRealGateway(openclaw, { ...options, readyTimeoutMs: BOOT_TIMEOUT_MS - 10_000 });
}

export function operator(gateway: RealGateway): GatewayClient {
  return new GatewayClient({ url: gateway.url, token: gateway.token, reconnect: false });
}

/** Polls until `read` answers something truthy (the Gateway's state is reached over the wire). */
export async function until<T>(
  read: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 90_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(250);
  }
}
