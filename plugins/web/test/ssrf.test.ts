import { describe, expect, it } from "vitest";
import {
  BLOCKED_HOST,
  BLOCKED_RESOLVED,
  createWebFetchTool,
  guardedFetch,
  resolvePinned,
} from "../src/index.js";
import { serve } from "./server.js";

const refused = [
  "http://localhost/",
  "http://127.0.0.1/",
  "http://[::1]/",
  "http://0.0.0.0/",
  "http://169.254.169.254/latest/meta-data/",
  "http://10.1.2.3/",
  "http://172.16.0.1/",
  "http://172.31.255.255/",
  "http://192.168.1.1/",
  "http://100.64.0.1/",
  "http://198.18.0.1/",
  "http://198.19.255.1/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:7f00:1]/",
  "http://[fe80::1]/",
  "http://[fc00::1]/",
  "http://[64:ff9b::a00:1]/",
  "http://0x7f.1/",
  "http://2130706433/",
  "http://0177.0.0.1/",
  "http://127.1/",
  "http://metadata.google.internal/",
  "http://printer.local/",
];

describe("SSRF guard (default policy)", () => {
  it.each(refused)("refuses %s", async (url) => {
    await expect(
      guardedFetch(url, { lookup: async () => [{ address: "93.184.216.34", family: 4 }] }),
    ).rejects.toThrow(BLOCKED_HOST);
  });

  it("refuses a public-looking name whose DNS answer is private, checking every address", async () => {
    const lookup = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "10.0.0.5", family: 4 },
    ];
    await expect(resolvePinned("totally-public.example", {}, lookup)).rejects.toThrow(BLOCKED_RESOLVED);
  });

  it("pins the connection to the checked address (no second DNS answer)", async () => {
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

  it("refuses a redirect from an allowed host to a private one, and redirect loops", async () => {
    const target = await serve((req, res) => {
      if (req.url === "/to-private") res.writeHead(302, { location: "http://10.0.0.1/secret" }).end();
      else if (req.url === "/loop") res.writeHead(302, { location: "/loop2" }).end();
      else if (req.url === "/loop2") res.writeHead(302, { location: "/loop" }).end();
      else res.writeHead(302, { location: `/hop${Number(req.url.slice(4) || 0) + 1}` }).end();
    });
    const policy = { allowedHostnames: ["allowed.test"] };
    const lookup = async () => [{ address: "127.0.0.1", family: 4 }];
    await expect(
      guardedFetch(`http://allowed.test:${target.port}/to-private`, { policy, lookup }),
    ).rejects.toThrow(BLOCKED_HOST);
    await expect(guardedFetch(`http://allowed.test:${target.port}/loop`, { policy, lookup })).rejects.toThrow(
      "Redirect loop detected",
    );
    await expect(guardedFetch(`http://allowed.test:${target.port}/hop0`, { policy, lookup })).rejects.toThrow(
      "Too many redirects (limit: 3)",
    );
  });

  it("drops sensitive headers on a cross-origin redirect", async () => {
    const second = await serve((_req, res) => res.end("ok"));
    const first = await serve((_req, res) =>
      res.writeHead(302, { location: `http://localhost:${second.port}/` }).end(),
    );
    await guardedFetch(`${first.url}/`, {
      policy: { allowPrivateNetwork: true },
      headers: { authorization: "Bearer secret", cookie: "s=1", "user-agent": "ua", accept: "text/html" },
    });
    expect(first.requests[0]!.headers.authorization).toBe("Bearer secret");
    expect(second.requests[0]!.headers.authorization).toBeUndefined();
    expect(second.requests[0]!.headers.cookie).toBeUndefined();
    expect(second.requests[0]!.headers["user-agent"]).toBe("ua");
  });

  it("caps a 50 MB response while streaming", async () => {
    const chunk = Buffer.alloc(1024 * 1024, 97);
    const big = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      let sent = 0;
      const pump = () => {
        while (sent < 50 && res.write(chunk)) sent++;
        if (sent >= 50) res.end();
        else
          res.once("drain", () => {
            sent++;
            pump();
          });
      };
      pump();
      res.on("error", () => {});
    });
    const before = process.memoryUsage().rss;
    const res = await guardedFetch(`${big.url}/`, {
      policy: { allowPrivateNetwork: true },
      maxBytes: 2_000_000,
    });
    expect(res.truncated).toBe(true);
    expect(res.body.length).toBe(2_000_000);
    expect(process.memoryUsage().rss - before).toBeLessThan(40 * 1024 * 1024);
  });

  it("web_fetch refuses private targets by default and reports the block as a tool error", async () => {
    const tool = createWebFetchTool();
    await expect(tool.execute("c", { url: "http://127.0.0.1:9/" })).rejects.toThrow(BLOCKED_HOST);
    await expect(tool.execute("c", { url: "file:///etc/passwd" })).rejects.toThrow(
      "Invalid URL: must be http or https",
    );
  });
});

describe("guarded fetch deadlines and abort", () => {
  const policy = { allowPrivateNetwork: true };

  it("times out a server that never answers", async () => {
    const silent = await serve(() => {});
    await expect(guardedFetch(`${silent.url}/`, { policy, timeoutMs: 200 })).rejects.toThrow(
      "Request timed out after 200 ms",
    );
  });

  it("times out a body that trickles in, even though each byte arrives in time", async () => {
    const slow = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const timer = setInterval(() => res.write("x"), 40);
      res.on("close", () => clearInterval(timer));
    });
    const started = Date.now();
    await expect(guardedFetch(`${slow.url}/`, { policy, timeoutMs: 300 })).rejects.toThrow(
      "Request timed out after 300 ms",
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("stops when the caller aborts, before or during the request", async () => {
    const silent = await serve(() => {});
    const before = new AbortController();
    before.abort();
    await expect(guardedFetch(`${silent.url}/`, { policy, signal: before.signal })).rejects.toThrow(/abort/i);
    const during = new AbortController();
    setTimeout(() => during.abort(), 100);
    await expect(guardedFetch(`${silent.url}/`, { policy, signal: during.signal })).rejects.toThrow(/abort/i);
  });
});
