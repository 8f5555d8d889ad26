import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

const clients: Client[] = [];

type Decision = "allow-once" | "allow-always" | "deny";

/** `clawtools serve` with exec set to ask for every command (a JSON config, no code). */
async function serve(
  workspace: string,
  answer?: () => { action: "accept" | "decline"; decision?: Decision },
) {
  const config = path.join(workspace, "clawtools.json");
  writeFileSync(config, JSON.stringify({ runtime: { exec: { ask: "always" } } }));
  const client = new Client(
    { name: "e2e-approvals", version: "1" },
    { capabilities: answer ? { elicitation: {} } : {} },
  );
  const messages: string[] = [];
  if (answer)
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      messages.push(request.params.message);
      const { action, decision } = answer();
      return action === "accept" ? { action, content: { decision: decision ?? "deny" } } : { action };
    });
  await connectCli(
    ["serve", "--workspace", workspace, "--state-dir", path.join(workspace, ".state"), "--config", config],
    { client, stderr: "ignore" },
  );
  clients.push(client);
  const exec = async (command: string, workdir?: string) => {
    const result = await client.callTool({
      name: "exec",
      arguments: { command, ...(workdir ? { workdir } : {}) },
    });
    return {
      text: (result.content as Array<{ text: string }>)[0]?.text ?? "",
      isError: result.isError === true,
    };
  };
  return { exec, messages };
}

describe("clawtools serve: exec approvals reach the client through elicitation", () => {
  beforeAll(() => ensureBuilt(), BUILD_TIMEOUT_MS);
  afterAll(async () => {
    for (const client of clients) await client.close();
  });

  it("allow once, allow always (remembered by the next serve on the state directory), decline, and no elicitation", async () => {
    const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-approvals-"));
    const answers: Array<{ action: "accept" | "decline"; decision?: Decision }> = [
      { action: "accept", decision: "allow-once" },
      { action: "accept", decision: "allow-always" },
      { action: "decline" },
    ];
    const asking = await serve(workspace, () => answers.shift()!);
    expect(await asking.exec("echo once")).toEqual({ text: expect.stringContaining("once"), isError: false });
    expect(asking.messages[0]).toContain("Command: echo once");
    expect(asking.messages[0]).toContain(`Working directory: ${workspace}`);
    expect((await asking.exec("echo always")).text).toContain("always");
    expect(readFileSync(path.join(workspace, ".state", "approvals.json"), "utf8")).toContain("echo always");
    const declined = await asking.exec("echo nope");
    expect(declined.isError).toBe(true);
    expect(declined.text).toContain("exec denied: Denied by user");
    expect(asking.messages).toHaveLength(3);

    // a client without elicitation: the remembered command runs, anything else gets the refusal
    const plain = await serve(workspace);
    expect((await plain.exec("echo always")).text).toContain("always");
    const refused = await plain.exec("echo once");
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("needs approval but no approval handler is configured");
  }, 120_000);

  it("the form shows control, ANSI, bidi and zero-width characters escaped; allow always covers the directory it named only", async () => {
    const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-approvals-"));
    mkdirSync(path.join(workspace, "a"));
    mkdirSync(path.join(workspace, "b"));
    const answers: Array<{ action: "accept" | "decline"; decision?: Decision }> = [
      { action: "decline" },
      { action: "accept", decision: "allow-always" },
      { action: "decline" },
    ];
    const asking = await serve(workspace, () => answers.shift()!);
    // a terminal would show this as "Command: ls -la": CR and ESC[2K erase what comes before
    const hidden = await asking.exec("touch pwned.txt #\r\x1b[2Kls -la \u202e\u200b");
    expect(hidden.isError).toBe(true);
    expect(asking.messages[0]).toContain("Command: touch pwned.txt #\\r\\x1b[2Kls -la \\u202e\\u200b");
    expect(asking.messages[0]).not.toMatch(/[\r\x1b\u202e\u200b]/);
    expect(existsSync(path.join(workspace, "pwned.txt"))).toBe(false);

    // allowed always in a/: runs again there unasked, but in b/ it is asked (and declined)
    expect((await asking.exec("pwd", "a")).text).toContain(path.join(workspace, "a"));
    expect(asking.messages[1]).toContain(`Working directory: ${path.join(workspace, "a")}`);
    expect((await asking.exec("pwd", "a")).text).toContain(path.join(workspace, "a"));
    expect(asking.messages).toHaveLength(2);
    const elsewhere = await asking.exec("pwd", "b");
    expect(elsewhere.isError).toBe(true);
    expect(elsewhere.text).toContain("exec denied: Denied by user");
    expect(asking.messages).toHaveLength(3);
    expect(asking.messages[2]).toContain(`Working directory: ${path.join(workspace, "b")}`);
  }, 120_000);
});
