import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The Gateway broker's address (`leaseGateway`), unless OpenClaw is not installed here. */
    openclawGatewayBroker: string | undefined;
  }
}

// a boot takes 12-30 s, more under load; a lessee's beforeAll waits 180 s for it
const READY_TIMEOUT_MS = 170_000;

/**
 * vitest's globalSetup (root vitest.config.ts): a loopback broker that lends real Gateways to
 * the test files, so one boot serves all of them. It boots nothing until a file asks.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const { findOpenclaw } = await import("../src/testing/openclaw-install.js");
  const openclaw = findOpenclaw();
  // each Gateway test file skips with the reason itself
  if ("skip" in openclaw) return undefined;
  const { fakeModelConfig, startGatewayBroker } = await import("../src/testing/index.js");
  const { recorderProfile } = await import("./recorder-profile.js");
  const broker = await startGatewayBroker(openclaw, {
    readyTimeoutMs: READY_TIMEOUT_MS,
    profiles: {
      // the model slots `fake` (every agent's default) and `scripted` answer with the lessee's fakes
      default: async (slot) => ({
        config: fakeModelConfig(await slot("fake"), { scripted: await slot("scripted") }),
      }),
      // a channel plugin configured: a file of its own (a send without a channel picks it)
      recorder: () => recorderProfile(openclaw),
    },
  });
  project.provide("openclawGatewayBroker", broker.url);
  return () => broker.close();
}
