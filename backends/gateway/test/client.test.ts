import { createHash, createPublicKey, verify } from "node:crypto";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type WebSocket, WebSocketServer } from "ws";
import { GatewayClient } from "../src/client.js";
import { deviceAuthPayloadV3, loadOrCreateDeviceIdentity } from "../src/device-identity.js";
import { GatewayError } from "../src/errors.js";

/** A loopback stand-in speaking the Gateway's handshake; `onRequest` answers everything else. */
async function fakeGateway(
  onRequest: (socket: WebSocket, frame: { id: string; method: string; params: unknown }) => void,
  onConnect: (params: Record<string, unknown>, nonce: string) => { ok: boolean; error?: unknown } = () => ({
    ok: true,
  }),
) {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const sockets: WebSocket[] = [];
  server.on("connection", (socket) => {
    sockets.push(socket);
    const nonce = `n${sockets.length}`;
    socket.send(
      JSON.stringify({
        type: "event",
        event: "connect.challenge",
        payload: { nonce, ts: 1_700_000_000_000 },
      }),
    );
    socket.on("message", (data) => {
      const frame = JSON.parse(String(data));
      if (frame.method === "connect") {
        const answer = onConnect(frame.params, nonce);
        socket.send(
          JSON.stringify(
            answer.ok
              ? {
                  type: "res",
                  id: frame.id,
                  ok: true,
                  payload: {
                    type: "hello-ok",
                    protocol: 4,
                    server: { version: "fake" },
                    features: { methods: [], events: [] },
                    auth: { role: "operator", scopes: frame.params.scopes },
                    policy: {},
                  },
                }
              : { type: "res", id: frame.id, ok: false, error: answer.error },
          ),
        );
        return;
      }
      onRequest(socket, frame);
    });
  });
  const { port } = server.address() as { port: number };
  return { url: `ws://127.0.0.1:${port}`, server, sockets };
}

const servers: WebSocketServer[] = [];
const clients: GatewayClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});
const track = (c: GatewayClient) => {
  clients.push(c);
  return c;
};

describe("GatewayClient against a loopback fake", () => {
  it("signs the challenge with the v3 payload the Gateway verifies", async () => {
    const identity = loadOrCreateDeviceIdentity(
      path.join(mkdtempSync(path.join(tmpdir(), "gw-id-")), "device.pem"),
    );
    let checked = false;
    const gw = await fakeGateway(
      () => {},
      (params, nonce) => {
        const device = params.device as Record<string, string | number>;
        const raw = Buffer.from(String(device.publicKey), "base64url");
        expect(device.id).toBe(createHash("sha256").update(raw).digest("hex"));
        expect(device).toMatchObject({ nonce, signedAt: 1_700_000_000_000 });
        const key = createPublicKey({
          key: { kty: "OKP", crv: "Ed25519", x: raw.toString("base64url") },
          format: "jwk",
        });
        const client = params.client as Record<string, string>;
        const payload = deviceAuthPayloadV3(String(device.id), {
          clientId: client.id!,
          clientMode: client.mode!,
          role: String(params.role),
          scopes: params.scopes as string[],
          signedAtMs: Number(device.signedAt),
          token: "secret-token",
          nonce,
          platform: client.platform!,
          deviceFamily: "",
        });
        expect(payload).toBe(
          `v3|${device.id}|gateway-client|backend|operator|operator.admin,operator.read,operator.write|1700000000000|secret-token|${nonce}|${process.platform}|`,
        );
        checked = verify(null, Buffer.from(payload), key, Buffer.from(String(device.signature), "base64url"));
        expect(params).toMatchObject({ minProtocol: 4, maxProtocol: 4, auth: { token: "secret-token" } });
        return { ok: checked };
      },
    );
    servers.push(gw.server);
    const client = track(
      new GatewayClient({ url: gw.url, token: "secret-token", identity, reconnect: false }),
    );
    expect((await client.connect()).server.version).toBe("fake");
    expect(checked).toBe(true);
  });

  it("matches responses that arrive out of order to their requests", async () => {
    const held: Array<{ socket: WebSocket; id: string; method: string }> = [];
    const gw = await fakeGateway((socket, frame) => {
      held.push({ socket, id: frame.id, method: frame.method });
      // answer both, the second first, once both are in
      if (held.length === 2)
        for (const h of [...held].reverse())
          h.socket.send(JSON.stringify({ type: "res", id: h.id, ok: true, payload: { method: h.method } }));
    });
    servers.push(gw.server);
    const client = track(new GatewayClient({ url: gw.url, token: "t", reconnect: false }));
    const [a, b] = await Promise.all([client.request("first"), client.request("second")]);
    expect([a, b]).toEqual([{ method: "first" }, { method: "second" }]);
  });

  it("a request with no answer fails with TIMEOUT naming the method", async () => {
    const gw = await fakeGateway(() => {});
    servers.push(gw.server);
    const client = track(new GatewayClient({ url: gw.url, token: "t", reconnect: false }));
    await expect(client.request("slow.method", {}, { timeoutMs: 50 })).rejects.toThrow(
      "gateway slow.method: TIMEOUT: no answer within 50 ms",
    );
  });

  it("a dropped connection fails the request in flight (never resent) and reconnects", async () => {
    const seen: string[] = [];
    const gw = await fakeGateway((socket, frame) => {
      seen.push(frame.method);
      if (frame.method === "drop") socket.terminate();
      else
        socket.send(
          JSON.stringify({ type: "res", id: frame.id, ok: true, payload: { n: gw.sockets.length } }),
        );
    });
    servers.push(gw.server);
    const reconnected = new Promise<void>((resolve) =>
      gw.server.on("connection", () => gw.sockets.length === 2 && resolve()),
    );
    const client = track(new GatewayClient({ url: gw.url, token: "t", reconnect: { minMs: 5, maxMs: 10 } }));
    const error = await client.request("drop").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: "CLOSED", retryable: true, method: "drop" });
    await reconnected;
    expect(await client.request("after")).toEqual({ n: 2 });
    expect(seen).toEqual(["drop", "after"]);
  });

  it("a refused connect is final: the Gateway's code and message, no second dial", async () => {
    const gw = await fakeGateway(
      () => {},
      () => ({ ok: false, error: { code: "UNAUTHORIZED", message: "gateway token mismatch" } }),
    );
    servers.push(gw.server);
    const client = track(
      new GatewayClient({ url: gw.url, token: "wrong", reconnect: { minMs: 1, maxMs: 2 } }),
    );
    const error = await client.connect().catch((e: unknown) => e);
    expect((error as Error).message).toBe("gateway connect: UNAUTHORIZED: gateway token mismatch");
    await expect(client.request("node.list")).rejects.toBe(error);
    expect(gw.sockets.length).toBe(1);
  });

  it("refuses a URL that is not ws:// or wss://", () => {
    expect(() => new GatewayClient({ url: "http://127.0.0.1:1" })).toThrow(
      'gateway url must be ws:// or wss://, got "http://127.0.0.1:1"',
    );
  });
});

describe("device identity", () => {
  it("is created once, mode 0600, and read back the same", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "gw-id-")), "sub", "device.pem");
    const first = loadOrCreateDeviceIdentity(file);
    expect(first.deviceId).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadOrCreateDeviceIdentity(file).deviceId).toBe(first.deviceId);
  });
});
