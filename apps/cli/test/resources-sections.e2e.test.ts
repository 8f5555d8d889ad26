// The sections' resources through the built CLI over --http (see support/section-resources.ts):
// a and b are two clients of one serve, b rooted in a workspace of its own.
import type { ChildProcess } from "node:child_process";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { type Host, sectionResourcesSuite } from "./support/section-resources.js";
import { serveHttp } from "./support/serve.js";

/** A client of `url`; with `root`, one that offers it as its only root (its session works there). */
async function connect(url: string, root?: string): Promise<Host> {
  const client = new Client(
    { name: "e2e-resources-sections", version: "1" },
    root ? { capabilities: { roots: { listChanged: true } } } : {},
  );
  if (root)
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: [{ uri: pathToFileURL(root).href }],
    }));
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, close: () => transport.terminateSession().catch(() => {}) };
}

sectionResourcesSuite("clawtools serve --http: the sections' resources", async (serve) => {
  let server: { child: ChildProcess; url: string } | undefined;
  server = await serveHttp(serve.args, { cwd: serve.workspace, env: { ...process.env, ...serve.env } });
  const a = await connect(server.url);
  const b = await connect(server.url, serve.elsewhere);
  return {
    a,
    b,
    stop: async () => {
      await a.close();
      await b.close();
      // its state directory is removed next: wait until it has stopped writing there
      const child = server?.child;
      server = undefined;
      if (child && child.exitCode === null && child.signalCode === null) {
        const closed = new Promise((resolve) => child.once("close", resolve));
        child.kill("SIGTERM");
        await closed;
      }
    },
  };
});
