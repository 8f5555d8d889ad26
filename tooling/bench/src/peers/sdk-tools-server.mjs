// The per-call peer: an MCP SDK server (its low-level Server over StdioServerTransport, the way
// most tool servers are written) doing the work clawtools' tools do, and nothing more:
// read = readFile + line numbers, ls = readdir, grep = rg -n, as one process answering over stdio.
import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [root, rg] = process.argv.slice(2);
const object = (properties) => ({ type: "object", properties });
const tools = [
  { name: "read", inputSchema: { ...object({ path: { type: "string" } }), required: ["path"] } },
  { name: "ls", inputSchema: object({ path: { type: "string" } }) },
  {
    name: "grep",
    inputSchema: {
      ...object({ pattern: { type: "string" }, path: { type: "string" } }),
      required: ["pattern"],
    },
  },
];
const text = (t) => ({ content: [{ type: "text", text: t }] });
const run = (file, args) =>
  new Promise((resolve) =>
    execFile(file, args, { cwd: root, maxBuffer: 64 << 20 }, (_e, out) => resolve(out)),
  );

const server = new Server({ name: "sdk-peer", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
  const args = params.arguments ?? {};
  const at = path.resolve(root, String(args.path ?? "."));
  if (params.name === "read") {
    const lines = (await readFile(at, "utf8")).split("\n");
    return text(lines.map((line, i) => `${i + 1}\t${line}`).join("\n"));
  }
  if (params.name === "ls") {
    const entries = await readdir(at, { withFileTypes: true });
    return text(
      entries
        .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
        .sort()
        .join("\n"),
    );
  }
  return text(await run(rg, ["-n", "--no-heading", String(args.pattern), path.relative(root, at) || "."]));
});
await server.connect(new StdioServerTransport());
