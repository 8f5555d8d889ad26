import { delay } from "@clawtools/core/time";
import { inject } from "vitest";
import { GatewayClient } from "../src/client.js";
import { findOpenclaw, type LeaseOptions, leaseGateway, type SharedGateway } from "../src/testing/index.js";

export const openclaw = findOpenclaw();
/** Why the real-Gateway tests cannot run here, or undefined. */
export const skipReason = "skip" in openclaw ? openclaw.skip : undefined;
if (skipReason) console.warn(`[gateway tests skipped] ${skipReason}`);

// a boot takes 12-30 s, more under load; the first test file to lease a Gateway pays it
export const BOOT_TIMEOUT_MS = 180_000;

/**
 * A real Gateway of the run's broker (gateway-broker.setup.ts), this file's alone until its
 * `stop()`: one boot serves every Gateway test file of a run.
 */
export async function bootGateway(options: LeaseOptions = {}): Promise<SharedGateway> {
  if ("skip" in openclaw) throw new Error(openclaw.skip);
  return leaseGateway(inject("openclawGatewayBroker"), options);
}

export function operator(gateway: SharedGateway): GatewayClient {
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
