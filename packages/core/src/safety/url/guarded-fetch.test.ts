import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { BLOCKED_HOST, guardedFetch } from "./index.js";

const loadedUndici = () =>
  Object.keys(createRequire(import.meta.url).cache).some((k) => /[\\/]undici[\\/]/.test(k));
const undiciAtImport = loadedUndici();

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});
/** A real HTTP server on loopback recording every request. */
async function serve(handler: (req: Received, res: ServerResponse) => void) {
  const requests: Received[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => {
      body += d;
    });
    req.on("end", () => {
      const received = { method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers, body };
      requests.push(received);
      handler(received, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, requests };
}
const open = { allowPrivateNetwork: true };

describe("guardedFetch", () => {
  it("loads undici on the first request, not when core is imported", async () => {
    expect(undiciAtImport).toBe(false);
    const server = await serve((_req, res) => res.end("ok"));
    expect((await guardedFetch(`${server.url}/`, { policy: open })).body.toString()).toBe("ok");
    expect(loadedUndici()).toBe(true);
  });

  it("refuses private targets by default, before connecting", async () => {
    const server = await serve((_req, res) => res.end("secret"));
    await expect(guardedFetch(`${server.url}/`)).rejects.toThrow(BLOCKED_HOST);
    expect(server.requests).toHaveLength(0);
  });

  it("pins the connection to the checked address (one DNS answer)", async () => {
    const server = await serve((_req, res) => res.end("pinned"));
    let calls = 0;
    const lookup = async () => {
      calls++;
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const res = await guardedFetch(`http://rebind.example:${server.port}/`, {
      policy: { allowedHostnames: ["rebind.example"] },
      lookup,
    });
    expect(res.body.toString()).toBe("pinned");
    expect(calls).toBe(1);
  });

  it("re-checks every hop: a redirect to a private address, loops and long chains fail", async () => {
    const target = await serve((req, res) => {
      if (req.url === "/to-private") res.writeHead(302, { location: "http://10.0.0.1/secret" }).end();
      else if (req.url === "/to-teredo")
        res.writeHead(302, { location: "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/" }).end();
      else if (req.url === "/loop") res.writeHead(302, { location: "/loop2" }).end();
      else if (req.url === "/loop2") res.writeHead(302, { location: "/loop" }).end();
      else if (req.url === "/nowhere") res.writeHead(302).end();
      else res.writeHead(302, { location: `/hop${Number(req.url.slice(4) || 0) + 1}` }).end();
    });
    const policy = { allowedHostnames: ["allowed.test"] };
    const lookup = async () => [{ address: "127.0.0.1", family: 4 }];
    const base = `http://allowed.test:${target.port}`;
    await expect(guardedFetch(`${base}/to-private`, { policy, lookup })).rejects.toThrow(BLOCKED_HOST);
    await expect(guardedFetch(`${base}/to-teredo`, { policy, lookup })).rejects.toThrow(BLOCKED_HOST);
    await expect(guardedFetch(`${base}/loop`, { policy, lookup })).rejects.toThrow("Redirect loop detected");
    await expect(guardedFetch(`${base}/hop0`, { policy, lookup })).rejects.toThrow(
      "Too many redirects (limit: 3)",
    );
    await expect(guardedFetch(`${base}/nowhere`, { policy, lookup })).rejects.toThrow(
      "Redirect missing location header (302)",
    );
  });

  it("drops credentials, cookies and body headers on a cross-origin redirect", async () => {
    const second = await serve((_req, res) => res.end("ok"));
    const first = await serve((_req, res) =>
      res.writeHead(302, { location: `http://localhost:${second.port}/` }).end(),
    );
    await guardedFetch(`${first.url}/`, {
      policy: open,
      headers: {
        authorization: "Bearer secret",
        cookie: "s=1",
        "user-agent": "ua",
        accept: "text/html",
        "content-type": "application/json",
        "x-api-key": "k",
      },
    });
    expect(first.requests[0]!.headers.authorization).toBe("Bearer secret");
    const hop = second.requests[0]!.headers;
    expect([hop.authorization, hop.cookie, hop["content-type"], hop["x-api-key"]]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect([hop["user-agent"], hop.accept]).toEqual(["ua", "text/html"]);
  });

  it("turns POST into a bodyless GET on 301/302/303 and drops the headers describing the body", async () => {
    for (const status of [301, 302, 303]) {
      const server = await serve((req, res) => {
        if (req.url === "/form") res.writeHead(status, { location: "/done" }).end();
        else res.end("done");
      });
      await guardedFetch(`${server.url}/form`, {
        policy: open,
        method: "POST",
        body: "a=1",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-language": "en",
          "x-keep": "1",
        },
      });
      const [post, get] = server.requests;
      expect(post).toMatchObject({ method: "POST", body: "a=1" });
      expect(post!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
      expect(get).toMatchObject({ method: "GET", url: "/done", body: "" });
      expect([
        get!.headers["content-type"],
        get!.headers["content-language"],
        get!.headers["content-length"],
      ]).toEqual([undefined, undefined, undefined]);
      expect(get!.headers["x-keep"]).toBe("1");
    }
  });

  it("keeps method, body and Content-Type on a same-origin 307/308, drops the body across origins", async () => {
    const other = await serve((_req, res) => res.end("other"));
    const server = await serve((req, res) => {
      if (req.url === "/same") res.writeHead(307, { location: "/target" }).end();
      else if (req.url === "/cross")
        res.writeHead(308, { location: `http://localhost:${other.port}/t` }).end();
      else res.end("target");
    });
    const post = {
      policy: open,
      method: "POST",
      body: '{"a":1}',
      headers: { "content-type": "application/json" },
    };
    await guardedFetch(`${server.url}/same`, post);
    expect(server.requests[1]).toMatchObject({ method: "POST", url: "/target", body: '{"a":1}' });
    expect(server.requests[1]!.headers["content-type"]).toBe("application/json");
    await guardedFetch(`${server.url}/cross`, post);
    expect(other.requests[0]).toMatchObject({ method: "POST", url: "/t", body: "" });
    expect(other.requests[0]!.headers["content-type"]).toBeUndefined();
  });

  it("returns a 300/304 as a response, not a redirect", async () => {
    const server = await serve((_req, res) => res.writeHead(300, { location: "/elsewhere" }).end("choices"));
    const res = await guardedFetch(`${server.url}/`, { policy: open });
    expect([res.status, res.body.toString(), server.requests.length]).toEqual([300, "choices", 1]);
  });

  it("cuts a long body at maxBytes while streaming", async () => {
    const chunk = Buffer.alloc(256 * 1024, 97);
    const big = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      let sent = 0;
      const pump = () => {
        while (sent < 40 && res.write(chunk)) sent++;
        if (sent >= 40) res.end();
        else res.once("drain", pump);
      };
      res.on("error", () => {});
      pump();
    });
    const res = await guardedFetch(`${big.url}/`, { policy: open, maxBytes: 1_000_000 });
    expect([res.truncated, res.body.length]).toEqual([true, 1_000_000]);
  });

  it("one deadline covers the whole exchange; the caller's signal stops it", async () => {
    const silent = await serve(() => {});
    await expect(guardedFetch(`${silent.url}/`, { policy: open, timeoutMs: 200 })).rejects.toThrow(
      "Request timed out after 200 ms",
    );
    const slow = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const timer = setInterval(() => res.write("x"), 40);
      res.on("close", () => clearInterval(timer));
    });
    await expect(guardedFetch(`${slow.url}/`, { policy: open, timeoutMs: 300 })).rejects.toThrow(
      "Request timed out after 300 ms",
    );
    const aborted = new AbortController();
    aborted.abort();
    await expect(guardedFetch(`${silent.url}/`, { policy: open, signal: aborted.signal })).rejects.toThrow(
      /abort/i,
    );
  });
});
