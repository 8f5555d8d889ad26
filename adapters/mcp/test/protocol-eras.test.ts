import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createToolset, definePlugin } from "@clawtools/core";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectMcpServer, type McpHttpServing, serveHttp } from "../src/index.js";
import { echoTool } from "./support/echo-tool.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
// tsx (the repository's dev dependency) runs the fixture servers from source
const tsx = createRequire(path.join(root, "package.json")).resolve("tsx");
const nodeArgs = (fixture: string) => [
  "--conditions=@clawtools/source",
  "--import",
  tsx,
  path.join(here, "fixtures", fixture),
];
const text = (r: unknown) =>
  ((r as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? "").join("\n");
const modern = () =>
  new ClientV2({ name: "v2-client", version: "2.4.0" }, { versionNegotiation: { mode: "auto" } });

/** Raw JSON-RPC lines to a stdio server: what the server itself answers, no SDK in between. */
function rawStdio(fixture: string) {
  const child: ChildProcess = spawn(process.execPath, nodeArgs(fixture), {
    stdio: ["pipe", "pipe", "ignore"],
  });
  const waiting = new Map<number, (m: Record<string, unknown>) => void>();
  let buffer = "";
  child.stdout?.on("data", (d) => {
    buffer += String(d);
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      const message = JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>;
      buffer = buffer.slice(nl + 1);
      waiting.get(message.id as number)?.(message);
    }
  });
  return {
    ask(id: number, method: string, params: Record<string, unknown>) {
      return new Promise<Record<string, unknown>>((resolve) => {
        waiting.set(id, resolve);
        child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      });
    },
    close: () => child.kill(),
  };
}

/** Each stdio case starts Node processes under tsx: generous on a loaded machine. */
const PROCESS_TIMEOUT_MS = 120_000;
const CLIENT_INFO = { name: "raw", version: "1" };
/** The per-request envelope a 2026-07-28 request carries instead of an initialize handshake. */
const ENVELOPE = {
  _meta: {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    "io.modelcontextprotocol/clientCapabilities": {},
  },
};

describe("serveStdio speaks both protocol eras (a real process)", () => {
  it(
    "answers server/discover with 2026-07-28 and initialize with 2025-11-25",
    async () => {
      const discover = rawStdio("serve-demo.ts");
      const found = await discover.ask(1, "server/discover", ENVELOPE);
      discover.close();
      expect(found.error).toBeUndefined();
      expect(JSON.stringify(found.result)).toContain("2026-07-28");
      expect(found.result).toMatchObject({ capabilities: { tools: {} } });
      const legacy = rawStdio("serve-demo.ts");
      const init = await legacy.ask(1, "initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: CLIENT_INFO,
      });
      legacy.close();
      expect(init.result).toMatchObject({ protocolVersion: "2025-11-25", capabilities: { tools: {} } });
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    "serves list and call to an SDK v2 client on 2026-07-28 (title, annotations, outputSchema, structuredContent)",
    async () => {
      const client = modern();
      await client.connect(new StdioV2({ command: process.execPath, args: nodeArgs("serve-demo.ts") }));
      expect(client.getProtocolEra()).toBe("modern");
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const { tools } = await client.listTools();
      expect(tools).toEqual([
        expect.objectContaining({
          name: "echo",
          title: "Echo text",
          outputSchema: expect.objectContaining({ required: ["length"] }),
          annotations: expect.objectContaining({ title: "Echo text" }),
        }),
      ]);
      const result = await client.callTool({ name: "echo", arguments: { text: "hello" } });
      expect(text(result)).toBe("hello");
      expect(result.structuredContent).toEqual({ length: 5 });
      await client.close();
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    "serves the 1.32 SDK client on 2025-11-25",
    async () => {
      const client = new ClientV1({ name: "v1-client", version: "1.32.2" });
      const transport = new StdioV1({ command: process.execPath, args: nodeArgs("serve-demo.ts") });
      await client.connect(transport);
      expect(client.getServerVersion()?.name).toBe("clawtools");
      const { tools } = await client.listTools();
      expect(tools[0]).toMatchObject({ name: "echo", title: "Echo text" });
      const result = await client.callTool({ name: "echo", arguments: { text: "hey" } });
      expect(result.structuredContent).toEqual({ length: 3 });
      await client.close();
    },
    PROCESS_TIMEOUT_MS,
  );
});

describe("serveHttp speaks both protocol eras", () => {
  const plugin = definePlugin({
    id: "demo",
    version: "1.0.0",
    tools: [{ factory: echoTool() }],
  });
  let serving: McpHttpServing;
  let sessions = 0;
  beforeAll(async () => {
    serving = await serveHttp(createToolset({ plugins: [plugin] }), {
      port: 0,
      signals: false,
      allowedOrigins: ["https://app.example"],
      sessionToolset: () => {
        sessions += 1;
        return createToolset({ plugins: [plugin] });
      },
    });
  });
  afterAll(async () => {
    await serving.stop();
  });

  it("serves an SDK v2 client statelessly on 2026-07-28, and the 1.32 client in a session of its own", async () => {
    const v2 = modern();
    await v2.connect(new HttpV2(new URL(serving.url)));
    expect(v2.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect((await v2.listTools()).tools[0]).toMatchObject({ name: "echo", title: "Echo" });
    const called = await v2.callTool({ name: "echo", arguments: { text: "modern" } });
    expect(called.structuredContent).toEqual({ length: 6 });
    // no initialize, no session id: the modern client still has an agent session of its own
    expect(serving.sessionCount()).toBe(1);
    expect(sessions).toBe(1);

    const v1 = new ClientV1({ name: "v1-client", version: "1.32.2" });
    const transport = new HttpV1(new URL(serving.url));
    await v1.connect(transport);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(serving.sessionCount()).toBe(2);
    expect(sessions).toBe(2);
    expect(text(await v1.callTool({ name: "echo", arguments: { text: "legacy" } }))).toBe("legacy");
    await v1.close();
    await v2.close();
  });

  it("refuses a 2026-07-28 request from a browser origin the user did not allow", async () => {
    const body = {
      jsonrpc: "2.0",
      id: 1,
      method: "server/discover",
      params: ENVELOPE,
    };
    const post = (origin: string) =>
      fetch(serving.url, {
        method: "POST",
        headers: {
          origin,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "server/discover",
        },
        body: JSON.stringify(body),
      });
    const refused = await post("https://evil.example");
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("https://evil.example");
    const allowed = await post("https://app.example");
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain("2026-07-28");
  });
});

describe("connectMcpServer (an SDK v2 client) imports from servers of either era", () => {
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(path.join(tmpdir(), "eras-"));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** The fixture started through a shell that writes one line per start to a file of its own. */
  function counted(fixture: string) {
    const starts = path.join(scratch, `${fixture}-${Math.random().toString(36).slice(2)}.starts`);
    const quoted = [process.execPath, ...nodeArgs(fixture)].map((a) => `'${a}'`).join(" ");
    return {
      config: { command: "/bin/sh", args: ["-c", `echo started >> '${starts}'; exec ${quoted}`] },
      starts: () => readFileSync(starts, "utf8").split("\n").filter(Boolean).length,
    };
  }

  it(
    "a 1.32 SDK server over stdio: the initialize handshake, in the one process it starts",
    async () => {
      const { config, starts } = counted("legacy-sdk-server.ts");
      const server = await connectMcpServer("old", config);
      expect(server.tools.map((t) => t.name)).toEqual(["old__shout"]);
      const result = await server.tools[0]!.execute("1", { text: "quiet" });
      expect(text(result)).toBe("QUIET");
      expect(result.details).toEqual({ protocol: "initialized" });
      // the server/discover probe went to this process too: no short-lived second copy
      expect(starts()).toBe(1);
      await server.close();
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    "a clawtools (SDK v2) server over stdio: 2026-07-28, in the one process it starts",
    async () => {
      const { config, starts } = counted("serve-demo.ts");
      const server = await connectMcpServer("new", config);
      expect(server.tools[0]).toMatchObject({ name: "new__echo", label: "Echo text" });
      const result = await server.tools[0]!.execute("1", { text: "abc" });
      expect(result.details).toEqual({ length: 3 });
      expect(starts()).toBe(1);
      await server.close();
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    "a server that exits on any request before initialize is started once more, without the probe",
    async () => {
      const { config, starts } = counted("initialize-first-server.ts");
      const server = await connectMcpServer("strict", config);
      expect(server.tools.map((t) => t.name)).toEqual(["strict__ping"]);
      expect(text(await server.tools[0]!.execute("1", {}))).toBe("pong");
      expect(starts()).toBe(2);
      await server.close();
    },
    PROCESS_TIMEOUT_MS,
  );
});
