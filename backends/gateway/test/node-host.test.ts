import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { GatewayClient } from "../src/client.js";
import { isGatewayError } from "../src/errors.js";
import { GatewayNodeHost } from "../src/node-host.js";

// a loopback stand-in that answers every request with the refusal 9.6 gives (no id in its text)
async function refusingGateway(message: string) {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  server.on("connection", (socket) => {
    socket.send(
      JSON.stringify({ type: "event", event: "connect.challenge", payload: { nonce: "n", ts: 1 } }),
    );
    socket.on("message", (data) => {
      const frame = JSON.parse(String(data));
      const hello = {
        type: "hello-ok",
        protocol: 4,
        server: { version: "fake" },
        features: { methods: [], events: [] },
        auth: { role: "operator", scopes: frame.params?.scopes },
        policy: {},
      };
      socket.send(
        JSON.stringify(
          frame.method === "connect"
            ? { type: "res", id: frame.id, ok: true, payload: hello }
            : {
                type: "res",
                id: frame.id,
                ok: false,
                error: { code: "INVALID_REQUEST", message, retryable: false, details: { why: "x" } },
              },
        ),
      );
    });
  });
  return server;
}

const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  // clients first: the server closes once its sockets are gone
  for (const thing of open.splice(0).reverse()) await thing.close();
});

describe("GatewayNodeHost refusals", () => {
  it("name the node, command or request the Gateway's text leaves out, keeping its code and details", async () => {
    const server = await refusingGateway("unknown nodeId");
    open.push({ close: () => new Promise((r) => server.close(r)) });
    const { port } = server.address() as { port: number };
    const client = new GatewayClient({ url: `ws://127.0.0.1:${port}`, token: "t", reconnect: false });
    open.push(client);
    const host = new GatewayNodeHost({ client });

    const described = await host.describe("node-7").catch((e: unknown) => e);
    expect(isGatewayError(described)).toBe(true);
    expect(described).toMatchObject({
      code: "INVALID_REQUEST",
      method: "node.describe",
      details: { why: "x" },
      message: 'gateway node.describe: INVALID_REQUEST: unknown nodeId (nodeId "node-7")',
    });
    await expect(host.invoke("node-7", "x.run", {}, { timeoutMs: 1_000 })).rejects.toThrow(
      'gateway node.invoke: INVALID_REQUEST: unknown nodeId (nodeId "node-7", command "x.run")',
    );
    await expect(host.approve("req-1")).rejects.toThrow(
      'gateway node.pair.approve: INVALID_REQUEST: unknown nodeId (requestId "req-1")',
    );
  });

  it("leave a refusal that already names the id as it is", async () => {
    const server = await refusingGateway('node command not allowed: "x.run" on node-7');
    open.push({ close: () => new Promise((r) => server.close(r)) });
    const { port } = server.address() as { port: number };
    const client = new GatewayClient({ url: `ws://127.0.0.1:${port}`, token: "t", reconnect: false });
    open.push(client);
    await expect(
      new GatewayNodeHost({ client }).invoke("node-7", "x.run", {}, { timeoutMs: 1_000 }),
    ).rejects.toThrow(
      /^gateway node\.invoke: INVALID_REQUEST: node command not allowed: "x\.run" on node-7$/,
    );
  });
});
