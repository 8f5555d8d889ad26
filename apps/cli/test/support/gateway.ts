import { type LeaseOptions, leaseGateway, type SharedGateway } from "@clawtools/gateway/testing";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** The Gateway broker's address (backends/gateway/test/gateway-broker.setup.ts). */
    openclawGatewayBroker: string | undefined;
  }
}

/** A real Gateway of the run's broker, this file's alone until its `stop()` (one boot serves the run). */
export function shareGateway(options: LeaseOptions = {}): Promise<SharedGateway> {
  return leaseGateway(inject("openclawGatewayBroker"), options);
}
