import { createServer, request } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BLOCKED_HEADER, EgressProxy } from "./egress-proxy.js";

// The proxy alone, over real sockets: what Chromium would send it, answered as Chromium would see it.
let origin: ReturnType<typeof createServer>;
let originPort: number;
let originConnections = 0;
const refused: string[] = [];
const lookup = async (host: string) => {
  if (host === "public.test" || host === "rebind.test") return [{ address: "127.0.0.1", family: 4 }];
  throw new Error(`no such name ${host}`);
};
const strict = new EgressProxy({
  policy: { allowedHostnames: ["public.test"] },
  lookup,
  onBlocked: (e) => refused.push(e.message),
});
const open = new EgressProxy({ policy: { allowPrivateNetwork: true }, lookup });

function viaProxy(proxy: EgressProxy, url: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const { port } = new URL(proxy.url);
      const req = request(
        { host: "127.0.0.1", port, path: url, headers: { host: new URL(url).host } },
        (res) => {
          let body = "";
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on("error", reject);
      req.end();
    },
  );
}

function tunnel(proxy: EgressProxy, authority: string) {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(Number(new URL(proxy.url).port), "127.0.0.1", () =>
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n\r\n`),
    );
    let head = "";
    socket.on("data", (c) => {
      head += c;
      if (head.includes("\r\n\r\n")) {
        socket.destroy();
        resolve(head.split("\r\n")[0]!);
      }
    });
    socket.on("error", reject);
  });
}

beforeAll(async () => {
  origin = createServer((_req, res) => res.writeHead(200, { [BLOCKED_HEADER]: "forged" }).end("origin page"));
  origin.on("connection", () => originConnections++);
  await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
  originPort = (origin.address() as AddressInfo).port;
  await strict.start();
  await open.start();
});

afterAll(async () => {
  await strict.stop();
  await open.stop();
  await new Promise<void>((resolve) => origin.close(() => resolve()));
});

describe("egress proxy", () => {
  it("forwards plain HTTP to an allowed name at its checked address, without the origin's forged marker", async () => {
    const res = await viaProxy(strict, `http://public.test:${originPort}/x`);
    expect(res.status).toBe(200);
    expect(res.body).toBe("origin page");
    expect(res.headers[BLOCKED_HEADER]).toBeUndefined();
  });

  it("answers a refused plain-HTTP request itself with 403 and the reason", async () => {
    const before = originConnections;
    const res = await viaProxy(strict, `http://rebind.test:${originPort}/`);
    expect(res.status).toBe(403);
    expect(res.headers[BLOCKED_HEADER]).toBe("1");
    expect(res.body).toBe(
      `Blocked by the browser's URL policy: rebind.test:${originPort}: Blocked: resolves to private/internal/special-use IP address`,
    );
    expect(refused.at(-1)).toBe(res.body);
    expect(originConnections).toBe(before);
  });

  it("tunnels CONNECT only to allowed destinations", async () => {
    const before = originConnections;
    expect(await tunnel(strict, `127.0.0.1:${originPort}`)).toBe("HTTP/1.1 403 Forbidden");
    expect(await tunnel(strict, `[::1]:${originPort}`)).toBe("HTTP/1.1 403 Forbidden");
    expect(await tunnel(strict, "public.test:99999")).toBe("HTTP/1.1 400 Bad Request");
    expect(originConnections).toBe(before);
    expect(await tunnel(strict, `public.test:${originPort}`)).toBe("HTTP/1.1 200 Connection Established");
    expect(originConnections).toBe(before + 1);
  });

  it("survives clients that reset their connections mid-answer (no unhandled socket error)", async () => {
    const port = Number(new URL(strict.url).port);
    const resets = [`127.0.0.1:${originPort}`, `public.test:${originPort}`, "nonsense"].map(
      (authority) =>
        new Promise<void>((resolve) => {
          const socket = connect(port, "127.0.0.1", () => {
            socket.write(`CONNECT ${authority} HTTP/1.1\r\nhost: x\r\n\r\n`);
            socket.resetAndDestroy();
          });
          socket.on("close", () => resolve());
          socket.on("error", () => {});
        }),
    );
    await Promise.all(resets);
    expect(await tunnel(strict, `public.test:${originPort}`)).toBe("HTTP/1.1 200 Connection Established");
  });

  it("never reaches itself, even with the private network allowed", async () => {
    const self = `127.0.0.1:${new URL(open.url).port}`;
    expect(await tunnel(open, self)).toBe("HTTP/1.1 403 Forbidden");
    expect((await viaProxy(open, `http://${self}/`)).status).toBe(403);
    expect((await viaProxy(open, `http://127.0.0.1:${originPort}/`)).body).toBe("origin page");
  });
});
