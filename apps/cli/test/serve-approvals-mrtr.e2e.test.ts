import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, bin, cliDir, ensureBuilt, text } from "./support/cli.js";
import { serveHttp } from "./support/serve.js";

// the SDK v2 client is a dependency of @clawtools/mcp, not of the CLI: loaded from there
const sdkV2 = createRequire(path.join(cliDir, "../../adapters/mcp/package.json")).resolve(
  "@modelcontextprotocol/client",
);
/** The part of SDK v2's client this test uses (its types are not the CLI's to import). */
interface V2Client {
  setRequestHandler(
    method: "elicitation/create",
    handler: (request: { params: unknown }) => Promise<Record<string, unknown>>,
  ): void;
  connect(transport: unknown): Promise<void>;
  getNegotiatedProtocolVersion(): string | undefined;
  callTool(params: {
    name: string;
    arguments: Record<string, unknown>;
  }): Promise<{ isError?: boolean; content?: unknown }>;
  close(): Promise<void>;
}
const { Client, StreamableHTTPClientTransport } = (await import(pathToFileURL(sdkV2).href)) as {
  Client: new (info: { name: string; version: string }, options: Record<string, unknown>) => V2Client;
  StreamableHTTPClientTransport: new (url: URL) => unknown;
};
const { StdioClientTransport } = (await import(
  pathToFileURL(
    createRequire(path.join(cliDir, "../../adapters/mcp/package.json")).resolve(
      "@modelcontextprotocol/client/stdio",
    ),
  ).href
)) as {
  StdioClientTransport: new (options: { command: string; args: string[]; stderr: "ignore" }) => unknown;
};

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGTERM");
});

type Answer = { action: "accept" | "decline" | "cancel"; content?: Record<string, string> };

/**
 * `clawtools serve --http` with exec asking for every command (a JSON config, no code), and an
 * SDK v2 client on MCP 2026-07-28 that answers approval forms with `answer` (none: no elicitation).
 */
async function start(answer?: () => Answer) {
  const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-mrtr-"));
  const config = path.join(workspace, "clawtools.json");
  writeFileSync(config, JSON.stringify({ runtime: { exec: { ask: "always" } } }));
  const { url } = await serveHttp(
    ["--workspace", workspace, "--state-dir", path.join(workspace, ".state"), "--config", config],
    { stdout: "ignore", track: children },
  );
  const client = new Client(
    { name: "e2e-mrtr", version: "1" },
    {
      versionNegotiation: { mode: "auto" },
      ...(answer ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  const asked: string[] = [];
  if (answer)
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push((request.params as { message: string }).message);
      return answer();
    });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  const exec = (command: string) => client.callTool({ name: "exec", arguments: { command } });
  return { client, exec, asked, workspace };
}

describe("clawtools serve --http: exec approvals for a 2026-07-28 client (input_required)", () => {
  beforeAll(() => ensureBuilt(), BUILD_TIMEOUT_MS);

  it("allow once runs the command after showing it and its directory; the next run asks again", async () => {
    const { client, exec, asked, workspace } = await start(() => ({
      action: "accept",
      content: { decision: "allow-once" },
    }));
    try {
      const result = await exec("echo approved-$((40+2))");
      expect(result.isError).not.toBe(true);
      expect(text(result)).toContain("approved-42");
      expect(asked[0]).toContain("Command: echo approved-$((40+2))");
      expect(asked[0]).toContain(`Working directory: ${workspace}`);
      await exec("echo approved-$((40+2))");
      expect(asked).toHaveLength(2);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("allow always is kept: the same command runs again without asking", async () => {
    const { client, exec, asked } = await start(() => ({
      action: "accept",
      content: { decision: "allow-always" },
    }));
    try {
      expect(text(await exec("echo kept"))).toContain("kept");
      expect(text(await exec("echo kept"))).toContain("kept");
      expect(asked).toHaveLength(1);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("a decline denies: the command never runs", async () => {
    const { client, exec, workspace } = await start(() => ({ action: "decline" }));
    try {
      const result = await exec("touch declined.txt");
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/denied/);
      expect(existsSync(path.join(workspace, "declined.txt"))).toBe(false);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("a client without elicitation gets the clear refusal", async () => {
    const { client, exec, workspace } = await start();
    try {
      const result = await exec("touch refused.txt");
      expect(result.isError).toBe(true);
      expect(text(result)).toContain("no approval handler is configured");
      expect(existsSync(path.join(workspace, "refused.txt"))).toBe(false);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("over stdio too: the call waits for the answer and runs the command", async () => {
    const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-mrtr-stdio-"));
    const config = path.join(workspace, "clawtools.json");
    writeFileSync(config, JSON.stringify({ runtime: { exec: { ask: "always" } } }));
    const client = new Client(
      { name: "e2e-mrtr-stdio", version: "1" },
      { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {} } } },
    );
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: "accept", content: { decision: "allow-once" } };
    });
    const args = ["serve", "--workspace", workspace, "--state-dir", path.join(workspace, ".state")];
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, ...args, "--config", config],
        stderr: "ignore",
      }),
    );
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const result = await client.callTool({ name: "exec", arguments: { command: "echo via-stdio" } });
      expect(text(result)).toContain("via-stdio");
      expect(asked[0]).toContain("Command: echo via-stdio");
    } finally {
      await client.close();
    }
  }, 60_000);
});
