import { createMcpServer } from "@clawtools/mcp";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import pkg from "../../package.json" with { type: "json" };
import type { CommonOptions } from "../options.js";
import { buildToolset } from "../toolset.js";

/** MCP over stdio. stdout belongs to the protocol: every log line goes to stderr. */
export async function serveCommand(options: CommonOptions): Promise<number> {
  const set = await buildToolset(options, { profile: "coding" });
  const log = (line: string) => process.stderr.write(`[clawtools] ${line}\n`);
  log(
    `serving ${set.tools.length} tools from ${options.workspace}: ${set.tools.map((t) => t.name).join(", ")}`,
  );
  for (const d of set.diagnostics) if (!d.reason.startsWith("not allowed by")) log(`left out ${d.message}`);
  const server = createMcpServer(set, { name: "clawtools", version: pkg.version });
  const transport = new StdioServerTransport();
  const stopped = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  await stopped;
  // no orphans: background sessions die with the server
  for (const s of set.clawtools.sections)
    (s.plugin as { registry?: { killAll(): void } } | undefined)?.registry?.killAll();
  await server.close().catch(() => {});
  return 0;
}
