// Leaving the sandbox through the host's approval, as an MCP host meets it: `serve` with
// runtime.sandbox bwrap and elevated exec on "ask"; the host does what a refused result tells
// it (call again with elevated: true) and answers the approval it is sent (elicitation).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt, text } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

// /var/tmp, not /tmp: the sandbox hides both, and the outside file is checked from the host
const root = mkdtempSync("/var/tmp/clawtools-e2e-leave-");
const workspace = path.join(root, "ws");
mkdirSync(workspace);
const clients: Client[] = [];
beforeAll(() => ensureBuilt(), BUILD_TIMEOUT_MS);
afterAll(async () => {
  for (const c of clients) await c.close();
  rmSync(root, { recursive: true, force: true });
});

describe("serve: leaving the bubblewrap sandbox goes through the host's approval", () => {
  it("the refusal says how to ask; elevated: true is sent to the host, and runs outside only when accepted", async () => {
    const config = path.join(root, "clawtools.json");
    writeFileSync(
      config,
      JSON.stringify({ runtime: { sandbox: "bwrap", exec: { elevated: "ask", ask: "on-miss" } } }),
    );
    const asked: string[] = [];
    let accept = true;
    const client = new Client({ name: "e2e-leave", version: "1" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return accept ? { action: "accept", content: { decision: "allow-once" } } : { action: "decline" };
    });
    await connectCli(
      ["serve", "--workspace", workspace, "--state-dir", path.join(root, "state"), "--config", config],
      {
        client,
        stderr: "ignore",
      },
    );
    clients.push(client);
    const marker = "/usr/clawtools-e2e-leave-marker";
    const target = path.join(root, "outside.txt");

    const inside = text(await client.callTool({ name: "exec", arguments: { command: `touch ${marker}` } }));
    expect(inside).toContain("Read-only file system");
    expect(inside).toContain("call exec again with elevated: true: that asks for approval");
    expect(asked).toEqual([]);

    // as the result says: the same call with elevated: true, declined first
    accept = false;
    const declined = await client.callTool({
      name: "exec",
      arguments: { command: `echo written > ${target}`, elevated: true },
    });
    expect(declined.isError).toBe(true);
    expect(existsSync(target)).toBe(false);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("runs outside the sandbox (elevated)");

    accept = true;
    const approved = await client.callTool({
      name: "exec",
      arguments: { command: `echo written > ${target}`, elevated: true },
    });
    expect(approved.isError, text(approved)).toBeFalsy();
    expect(readFileSync(target, "utf8")).toBe("written\n");
    expect(asked).toHaveLength(2);
  });
});
