// The floor of a stdio tool server: Node's start, a line reader and JSON, answering the MCP
// opening and doing a call's bare work (read = readFile, exec = sh -c) with no SDK and no checks.
const { execFile } = require("node:child_process");
const { readFile } = require("node:fs/promises");
const path = require("node:path");
const root = process.argv[2];
const answer = (id, result) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id, result })}\n`);
const text = (t) => ({ content: [{ type: "text", text: t }] });
const rl = require("node:readline").createInterface({ input: process.stdin });
rl.on("line", async (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === "initialize")
    return answer(m.id, {
      protocolVersion: "2025-06-18",
      capabilities: { tools: {} },
      serverInfo: { name: "bare", version: "0" },
    });
  if (m.method !== "tools/call") return answer(m.id, { tools: [] });
  const args = m.params.arguments;
  if (m.params.name === "read")
    return answer(m.id, text(await readFile(path.resolve(root, args.path), "utf8")));
  execFile("sh", ["-c", args.command], { cwd: root }, (_e, out) => answer(m.id, text(out)));
});
rl.on("close", () => process.exit(0));
