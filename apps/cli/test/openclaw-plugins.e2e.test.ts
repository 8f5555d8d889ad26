// Real published OpenClaw plugins (dev dependencies) served by `clawtools serve`, each called
// against a loopback fake of the service it talks to.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { listenOnOllamaPort, OLLAMA_PORT } from "../../../adapters/openclaw-plugins/test/ollama-port.js";
import { BUILD_TIMEOUT_MS, bin, cliDir, ensureBuilt, POLL } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

const adapterDist = path.resolve(cliDir, "../../adapters/openclaw-plugins/dist/index.js");
// each test starts serve with real OpenClaw plugins (TypeScript entries loaded at start), some of
// them five times in a row: under load 50-65 here single tests ran past the 30 s default
vi.setConfig({ testTimeout: 120_000 });
const home = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-openclaw-home-"));
const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-openclaw-"));
// mem0 reads ~/.mem0 and sends telemetry unless told not to: a home of its own, telemetry off
const env = { ...process.env, HOME: home, MEM0_TELEMETRY: "false" } as Record<string, string>;

interface Seen {
  method: string;
  url: string;
  body: unknown;
  headers: IncomingMessage["headers"];
}

/** A loopback HTTP fake answering with `answer(request)` and recording every request. */
async function fake(
  port: number,
  answer: (seen: Seen) => unknown,
): Promise<{ server: Server; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => {
      raw += String(d);
    });
    req.on("end", () => {
      const request = {
        method: req.method ?? "",
        url: req.url ?? "",
        body: raw ? JSON.parse(raw) : undefined,
        headers: req.headers,
      };
      seen.push(request);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(answer(request)));
    });
  });
  if (port === OLLAMA_PORT) await listenOnOllamaPort(server);
  else
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", resolve);
    });
  return { server, seen };
}

async function serve(args: string[]) {
  const { client, stderr } = await connectCli(["serve", "--workspace", workspace, ...args], {
    cwd: cliDir,
    env,
    name: "e2e-openclaw",
  });
  const names = (await client.listTools()).tools.map((t) => t.name);
  return { client, names, stderr };
}

const start = (args: string[]) =>
  spawnSync(process.execPath, [bin, "serve", "--workspace", workspace, ...args], {
    cwd: cliDir,
    env,
    encoding: "utf8",
    input: "",
  });

describe("clawtools serve with real OpenClaw plugins", () => {
  const servers: Server[] = [];
  beforeAll(() => ensureBuilt([adapterDist]), BUILD_TIMEOUT_MS);
  afterAll(() => {
    for (const server of servers) server.close();
  });

  it("serves @ollama/openclaw-web-search (a TypeScript entry) and calls it against a fake Ollama on 11434", async () => {
    // the plugin's URL is fixed: http://127.0.0.1:11434/api/experimental/web_search|web_fetch
    const ollama = await fake(11434, (req) =>
      req.url.endsWith("/web_search")
        ? { results: [{ title: "Clawtools", url: "https://example.com/claw", content: "agent tools" }] }
        : { title: "Example", content: "page body", links: ["https://example.com/a"] },
    );
    // the port is fixed: free it for other test files as soon as this test ends
    onTestFinished(() => {
      ollama.server.close();
    });
    const { client, names, stderr } = await serve(["--plugin", "@ollama/openclaw-web-search"]);
    expect(names).toEqual(expect.arrayContaining(["ollama_web_search", "ollama_web_fetch", "read"]));
    // serve's stderr may be read after its answers on stdout (two pipes)
    await expect
      .poll(stderr, POLL)
      .toContain(
        "[clawtools] plugin openclaw-web-search (@ollama/openclaw-web-search): serving ollama_web_search, ollama_web_fetch",
      );
    const found = await client.callTool({ name: "ollama_web_search", arguments: { query: " clawtools " } });
    expect(found.isError).toBeFalsy();
    expect((found.content as Array<{ text: string }>)[0]!.text).toBe(
      "1. Clawtools\n   https://example.com/claw\n   agent tools",
    );
    const page = await client.callTool({
      name: "ollama_web_fetch",
      arguments: { url: "https://example.com" },
    });
    expect((page.content as Array<{ text: string }>)[0]!.text).toContain("# Example\n\npage body");
    expect(ollama.seen.map((s) => [s.method, s.url, s.body, s.headers["content-type"]])).toEqual([
      ["POST", "/api/experimental/web_search", { query: "clawtools", max_results: 5 }, "application/json"],
      ["POST", "/api/experimental/web_fetch", { url: "https://example.com" }, "application/json"],
    ]);
    // a tool error of the plugin is a tool error result, not a crash
    const empty = await client.callTool({ name: "ollama_web_search", arguments: { query: "  " } });
    expect(empty.isError).toBe(true);
    expect(JSON.stringify(empty.content)).toContain("query parameter is required");
    await client.close();
  });

  it("serves it under every profile, and --deny still removes a tool", async () => {
    for (const profile of ["minimal", "messaging", "coding", "full"]) {
      const { client, names } = await serve([
        "--plugin",
        "@ollama/openclaw-web-search",
        "--profile",
        profile,
      ]);
      expect(names, profile).toEqual(expect.arrayContaining(["ollama_web_search", "ollama_web_fetch"]));
      await client.close();
    }
    const denied = await serve(["--plugin", "@ollama/openclaw-web-search", "--deny", "ollama_web_fetch"]);
    expect(denied.names).toContain("ollama_web_search");
    expect(denied.names).not.toContain("ollama_web_fetch");
    await denied.client.close();
  });

  describe("@mem0/openclaw-mem0 (kind memory: its memory_search and memory_get are the memory section's names)", () => {
    let mem0: Awaited<ReturnType<typeof fake>>;
    let dir: string;
    const config = (entry: Record<string, unknown>) => {
      const file = path.join(dir, `clawtools-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(file, JSON.stringify({ plugins: [entry] }));
      return file;
    };
    const mem0Config = () => ({
      mode: "platform",
      apiKey: "m0-e2e-secret-key",
      baseUrl: `http://127.0.0.1:${(mem0.server.address() as { port: number }).port}`,
      userId: "alice",
    });
    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-mem0-"));
      // mem0's platform API: a ping, then the search
      mem0 = await fake(0, (req) =>
        req.url.startsWith("/v1/ping/")
          ? { status: "ok", orgId: "org", projectId: "project", userEmail: "alice@example.com" }
          : { results: [{ id: "m-1", memory: "Alice prefers green tea", score: 0.93, user_id: "alice" }] },
      );
      servers.push(mem0.server);
    });

    it("refuses the collision with the memory section without replaces, naming it and the way out", () => {
      const refused = start(["--config", config({ name: "@mem0/openclaw-mem0", config: mem0Config() })]);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain('plugin "@mem0/openclaw-mem0"');
      expect(refused.stderr).toContain(
        'its tools memory_search, memory_get collide with the memory section\'s; to let it replace that section (as OpenClaw\'s memory slot does), give its plugins entry "replaces": "memory" or pass --plugin-replaces memory',
      );
      // its API key never reaches the output
      expect(refused.stderr).not.toContain("m0-e2e-secret-key");
    });

    it("replaces the memory section with replaces, serves its 8 tools and searches the fake mem0 API", async () => {
      const file = config({ name: "@mem0/openclaw-mem0", replaces: "memory", config: mem0Config() });
      const { client, names, stderr } = await serve(["--config", file, "--profile", "messaging"]);
      const mem0Tools = [
        "memory_search",
        "memory_add",
        "memory_get",
        "memory_list",
        "memory_update",
        "memory_delete",
        "memory_event_list",
        "memory_event_status",
      ];
      expect(names).toEqual(expect.arrayContaining(mem0Tools));
      await expect
        .poll(stderr, POLL)
        .toContain("[clawtools] plugin openclaw-mem0 replaces the memory section");
      await expect
        .poll(stderr, POLL)
        .toContain(
          '[clawtools] plugin openclaw-mem0: not supported by clawtools, left out: registerMemoryCapability, registerCli, on("before_prompt_build"), on("agent_end"), registerService',
        );
      const found = await client.callTool({ name: "memory_search", arguments: { query: "tea" } });
      // mem0's own details shape is not checked against the memory section's outputSchema
      expect(found.isError).toBeFalsy();
      expect(JSON.stringify(found.content)).toContain("Alice prefers green tea");
      const search = mem0.seen.find((s) => s.url.startsWith("/v3/memories/search/"));
      expect(search?.body).toMatchObject({ query: "tea", filters: { user_id: "alice" } });
      expect(search?.headers.authorization).toBe("Token m0-e2e-secret-key");
      expect(stderr()).not.toContain("m0-e2e-secret-key");
      await client.close();
      // --plugin-replaces says the same on the command line
      const flagged = await serve([
        "--config",
        config({ name: "@mem0/openclaw-mem0", config: mem0Config() }),
        "--plugin-replaces",
        "memory",
      ]);
      expect(flagged.names).toEqual(expect.arrayContaining(mem0Tools));
      await flagged.client.close();
    });

    it("fails the start naming a configuration its configSchema refuses", () => {
      const bad = start([
        "--config",
        config({
          name: "@mem0/openclaw-mem0",
          replaces: "memory",
          config: { ...mem0Config(), colour: "red" },
        }),
      ]);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain("plugin openclaw-mem0: its configuration does not match its configSchema");
    });
  });

  it("refuses config and replaces on a plugin that is not an OpenClaw plugin", () => {
    const shout = path.join(cliDir, "test", "fixtures", "shout-plugin.mjs");
    const file = path.join(mkdtempSync(path.join(tmpdir(), "clawtools-e2e-oc-")), "c.json");
    writeFileSync(file, JSON.stringify({ plugins: [{ name: shout, replaces: "memory" }] }));
    const bad = start(["--config", file]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('"config" and "replaces" apply to OpenClaw plugins');
  });
});
