import { nodeHostConformance } from "@clawtools/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GatewayClient } from "../src/client.js";
import { isGatewayError } from "../src/errors.js";
import { GatewayNodeHost } from "../src/node-host.js";
import type { SharedGateway } from "../src/testing/index.js";
import { BOOT_TIMEOUT_MS, bootGateway, operator, skipReason, until } from "./real.js";

describe.skipIf(skipReason !== undefined)("GatewayNodeHost against a real OpenClaw Gateway and node", () => {
  let gateway: SharedGateway;
  let client: GatewayClient;
  let host: GatewayNodeHost;

  beforeAll(async () => {
    gateway = await bootGateway();
    client = operator(gateway);
    host = new GatewayNodeHost({ client, ownsClient: true });
  }, BOOT_TIMEOUT_MS);

  afterAll(async () => {
    await host?.dispose();
    await gateway?.stop();
  }, 60_000);

  it("connects with protocol 4 and the scopes it asked for", async () => {
    const hello = await client.connect();
    expect(hello.protocol).toBe(4);
    expect(hello.server.version).toBe("2026.9.6");
    expect(hello.auth.scopes).toEqual(["operator.admin", "operator.read", "operator.write"]);
    expect(hello.features.methods).toEqual(
      expect.arrayContaining(["node.list", "node.invoke", "node.pair.approve"]),
    );
  });

  it("surfaces the Gateway's error code and message", async () => {
    const error = await client.request("cron.add", { name: "x" }).catch((e: unknown) => e);
    expect(isGatewayError(error)).toBe(true);
    expect(error).toMatchObject({ code: "INVALID_REQUEST", method: "cron.add" });
    expect((error as Error).message).toMatch(/^gateway cron\.add: INVALID_REQUEST: invalid cron\.add params/);
  });

  it("a wrong token is refused with the Gateway's reason and no reconnect loop", async () => {
    const { GatewayClient } = await import("../src/client.js");
    const bad = new GatewayClient({ url: gateway.url, token: "wrong-token" });
    const error = await bad.connect().catch((e: unknown) => e);
    expect(isGatewayError(error)).toBe(true);
    expect((error as Error).message).toMatch(/^gateway connect: /);
    expect((error as Error).message).not.toContain("wrong-token");
    // the refusal is final: the next call answers it at once instead of dialling again
    await expect(bad.request("node.list")).rejects.toBe(error);
    await bad.close();
  });

  it("a real node pairs through node.pair.approve, is listed, and runs system.run", async () => {
    expect(await host.list()).toEqual([]);
    await gateway.startNode("clawtools-test-node");
    const request = await until(async () => (await host.pending())[0], "the node's pairing request");
    expect(request).toMatchObject({ displayName: "clawtools-test-node", nodeId: expect.any(String) });
    expect(Number.isNaN(Date.parse(request.requestedAt))).toBe(false);
    expect(await host.approve(request.requestId)).toEqual({ ok: true, nodeId: request.nodeId });
    const node = await until(
      // after approval the node reconnects with its commands: wait for that connection
      async () =>
        (await host.list()).find(
          (n) => n.nodeId === request.nodeId && n.connected && n.commands.includes("system.run"),
        ),
      "the approved node's commands",
    );
    expect(node).toMatchObject({
      displayName: "clawtools-test-node",
      platform: "linux",
      connected: true,
      paired: true,
    });
    const described = await host.describe(node.nodeId);
    expect(described).toMatchObject({ nodeId: node.nodeId, displayName: "clawtools-test-node" });
    const result = await host.invoke(
      node.nodeId,
      "system.run",
      { command: ["echo", "hello from node"] },
      { timeoutMs: 30_000 },
    );
    expect(result).toMatchObject({ exitCode: 0, success: true, stdout: "hello from node\n" });
    // the Gateway's refusal of a command outside its allowlist reaches the caller as is
    const error = await host
      .invoke(node.nodeId, "camera.snap", {}, { timeoutMs: 10_000 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "INVALID_REQUEST" });
    expect((error as Error).message).toContain('node command not allowed: "camera.snap"');
  }, 150_000);

  it("rejecting an unknown pairing request names the Gateway's error", async () => {
    await expect(host.reject("no-such-request")).rejects.toThrow(/^gateway node\.pair\.reject: /);
  });

  // the shared suite, against the node paired above (a host per test over the one connection)
  nodeHostConformance(
    () => ({
      host: new GatewayNodeHost({ client }),
      probe: {
        command: "system.run",
        params: { command: ["echo", "conformance probe"] },
        timeoutMs: 60_000,
        check: (result) => expect(result).toMatchObject({ exitCode: 0, stdout: "conformance probe\n" }),
      },
    }),
    { name: "GatewayNodeHost: NodeHost conformance", stepTimeoutMs: 90_000 },
  );
});
