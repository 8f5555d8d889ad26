/**
 * A tool call over stdio MCP (the built `clawtools serve`) against the same call in-process,
 * and the cold start of `clawtools serve` to its first tools/list answer.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createToolset } from "@clawtools/core";
import { fsPlugin } from "@clawtools/fs";
import { PassThrough } from "node:stream";
import { createMcpServer, LineTransport, serveHttp } from "@clawtools/mcp";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { type BenchRow, type BenchSuite, percentile, timeInTurns, timeMedian } from "../harness.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
const bin = path.join(root, "apps", "cli", "dist", "bin.js");

async function connect(workspace: string): Promise<Client> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, "serve", "--workspace", workspace],
      stderr: "ignore",
    }),
  );
  return client;
}

export default {
  name: "mcp",
  async run() {
    const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-bench-mcp-"));
    writeFileSync(path.join(workspace, "a.txt"), "hello\n");
    const rows: BenchRow[] = [];
    const read = createToolset({ plugins: [fsPlugin], context: { workspaceDir: workspace } }).tools.find(
      (t) => t.name === "read",
    )!;
    const inProcess = await timeMedian(() => read.execute("b", { path: "a.txt" }), 300, 30);
    rows.push({ name: "read a small file in-process (pipeline)", value: inProcess, unit: "ms" });
    const client = await connect(workspace);
    const overMcp = await timeMedian(
      () => client.callTool({ name: "read", arguments: { path: "a.txt" } }),
      300,
      30,
    );
    await client.close();
    rows.push({
      name: "the same call over stdio MCP",
      value: overMcp,
      unit: "ms",
      baseline: "read a small file in-process (pipeline)",
    });
    rows.push({
      name: "added per call by MCP over stdio",
      value: overMcp - inProcess,
      unit: "ms",
      target: "< 2 ms",
      met: overMcp - inProcess < 2,
    });
    // the framing alone, in one process over pipes: ours (size cap, in-flight tracking) against the SDK's
    const set = createToolset({ plugins: [fsPlugin], context: { workspaceDir: workspace } });
    const framed = async (server: "ours" | "sdk") => {
      const toServer = new PassThrough();
      const toClient = new PassThrough();
      const mcp = createMcpServer(set);
      await mcp.connect(
        server === "ours"
          ? new LineTransport(toServer, toClient)
          : new StdioServerTransport(toServer, toClient),
      );
      const c = new Client({ name: "bench", version: "1" });
      await c.connect(new LineTransport(toClient, toServer));
      return {
        call: () => c.callTool({ name: "read", arguments: { path: "a.txt" } }),
        close: () => c.close(),
      };
    };
    const sdk = await framed("sdk");
    const ours = await framed("ours");
    const turns = await timeInTurns({ sdk: sdk.call, ours: ours.call }, 300);
    await sdk.close();
    await ours.close();
    rows.push({
      name: "read over the SDK's StdioServerTransport (in-process pipes)",
      value: turns.sdk,
      unit: "ms",
    });
    rows.push({
      name: "read over @clawtools/mcp's line transport (in-process pipes)",
      value: turns.ours,
      unit: "ms",
      baseline: "read over the SDK's StdioServerTransport (in-process pipes)",
    });
    const http = await serveHttp(set, { port: 0, signals: false });
    const httpClient = new Client({ name: "bench", version: "1" });
    await httpClient.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    const overHttp = await timeMedian(
      () => httpClient.callTool({ name: "read", arguments: { path: "a.txt" } }),
      300,
      30,
    );
    await httpClient.close();
    await http.stop();
    rows.push({
      name: "the same call over Streamable HTTP (loopback)",
      value: overHttp,
      unit: "ms",
      baseline: "read a small file in-process (pipeline)",
    });
    const starts: number[] = [];
    for (let i = 0; i < 7; i++) {
      const start = performance.now();
      const c = await connect(workspace);
      await c.listTools();
      starts.push(performance.now() - start);
      await c.close();
    }
    const cold = percentile(starts, 50);
    rows.push({
      name: "cold start of clawtools serve to first tools/list",
      value: cold,
      unit: "ms",
      target: "< 1000 ms",
      met: cold < 1000,
    });
    return {
      title: "MCP: stdio overhead and cold start",
      rows,
      notes: [
        "Uses the built CLI (apps/cli/dist); run `pnpm build` first. Cold start is the median of 7 spawns, including Node's own start-up.",
      ],
    };
  },
} satisfies BenchSuite;
