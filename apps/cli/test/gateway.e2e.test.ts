import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { delay } from "@clawtools/core/time";
import { findOpenclaw, type SharedGateway } from "@clawtools/gateway/testing";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, json, POLL, requireBuilt, text } from "./support/cli.js";
import { shareGateway } from "./support/gateway.js";
import { connectCli } from "./support/serve.js";

const openclaw = findOpenclaw();
const skipReason = "skip" in openclaw ? openclaw.skip : undefined;
if (skipReason) console.warn(`[serve --gateway tests skipped] ${skipReason}`);
const BOOT_TIMEOUT_MS = 180_000;

/**
 * The root README's Gateway example ("Compose your bundle", the ```bash block): the serve line's
 * arguments after `npx clawtools`, the Gateway URL it names, and the start-up line it shows.
 */
function readmeGatewayExample(): { args: string[]; url: string; startLine: string } {
  const readme = readFileSync(path.resolve(path.dirname(bin), "../../../README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Compose your bundle\n"));
  const block = /```bash\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  const serve = /^OPENCLAW_GATEWAY_TOKEN=<token> npx clawtools (serve .*)$/m.exec(block)?.[1];
  const startLine = /^# \[clawtools\] (gateway .*)$/m.exec(block)?.[1];
  if (!serve || !startLine)
    throw new Error(`README's Gateway example is not in the expected shape:\n${block}`);
  const args = serve.split(/\s+/);
  const url = args[args.indexOf("--gateway") + 1] ?? "";
  return { args, url, startLine };
}
const example = readmeGatewayExample();

describe.skipIf(skipReason !== undefined)("clawtools serve --gateway against a real OpenClaw Gateway", () => {
  let gateway: SharedGateway;
  let client: Client;
  let stderr: () => string = () => "";
  const call = async (args: Record<string, unknown>) => {
    const result = await client.callTool({ name: "nodes", arguments: args });
    if (result.isError) throw new Error(`nodes ${JSON.stringify(args)} failed: ${text(result)}`);
    return json(result);
  };

  beforeAll(async () => {
    requireBuilt();
    if ("skip" in openclaw) return;
    gateway = await shareGateway();
    const workspace = mkdtempSync(path.join(tmpdir(), "cli-gateway-"));
    // the README's example: serve --gateway with the token from the environment, state in the
    // workspace's own state directory (XDG_STATE_HOME points into it)
    ({ client, stderr } = await connectCli(
      // the README's line as written, its Gateway URL this test's Gateway; run in a fresh workspace
      example.args.map((arg) => (arg === example.url ? gateway.url : arg)),
      {
        cwd: workspace,
        env: { OPENCLAW_GATEWAY_TOKEN: gateway.token, XDG_STATE_HOME: path.join(workspace, ".state") },
        name: "e2e-gateway",
      },
    ));
  }, BOOT_TIMEOUT_MS + 60_000);

  afterAll(async () => {
    await client?.close().catch(() => {});
    await gateway?.stop();
  }, 60_000);

  it("says at start which sections go through the Gateway and which stay embedded", async () => {
    // serve's stderr may be read after its answers on stdout (two pipes)
    await expect
      .poll(stderr, POLL)
      .toMatch(
        new RegExp(
          `gateway ${gateway.url} \\(OpenClaw 2026\\.9\\.6\\): through the Gateway: nodes, sessions, automation, messaging; embedded: .*\\bfs\\b`,
        ),
      );
    expect(stderr()).not.toContain(gateway.token);
    // and the README shows that line as serve prints it (its list of embedded sections elided)
    const [shown, elided] = example.startLine.replace(example.url, gateway.url).split(" …");
    await expect.poll(stderr, POLL).toContain(shown);
    await expect.poll(stderr, POLL).toContain(elided);
  });

  it("a real node pairs through the nodes tool and shows up in status and describe", async () => {
    expect(await call({ action: "status" })).toEqual({ nodes: [] });
    await gateway.startNode("e2e-node");
    let pending: Array<{ requestId: string; nodeId: string; displayName?: string }> = [];
    for (const deadline = Date.now() + 90_000; pending.length === 0; await delay(250)) {
      if (Date.now() > deadline) throw new Error("the node's pairing request never showed up");
      ({ pending } = await call({ action: "pending" }));
    }
    expect(pending[0]).toMatchObject({ displayName: "e2e-node" });
    expect(await call({ action: "approve", requestId: pending[0]!.requestId })).toMatchObject({
      ok: true,
      nodeId: pending[0]!.nodeId,
    });
    type Listed = { nodeId: string; displayName: string; connected: boolean; commands: string[] };
    let node: Listed | undefined;
    for (const deadline = Date.now() + 90_000; !node; await delay(250)) {
      if (Date.now() > deadline) throw new Error("the approved node never listed its commands");
      const { nodes } = (await call({ action: "status" })) as { nodes: Listed[] };
      node = nodes.find((n) => n.connected && n.commands.includes("system.run"));
    }
    expect(node).toMatchObject({ displayName: "e2e-node", nodeId: pending[0]!.nodeId });
    expect(await call({ action: "describe", node: "e2e-node" })).toMatchObject({
      nodeId: pending[0]!.nodeId,
      commands: expect.arrayContaining(["system.run"]),
    });
    // as in OpenClaw, the nodes tool keeps system.run for exec (NodeHost.invoke runs it: see
    // @clawtools/gateway's node-host.real.test.ts); a raw invoke of it is refused
    const refused = await client.callTool({
      name: "nodes",
      arguments: { action: "invoke", node: "e2e-node", invokeCommand: "system.run", invokeParamsJson: "{}" },
    });
    expect(text(refused)).toContain('invokeCommand \\"system.run\\" is reserved for shell execution');
  }, 200_000);

  it("a wrong token fails the start with the Gateway's reason, exit code 2", async () => {
    const workspace = mkdtempSync(path.join(tmpdir(), "cli-gateway-bad-"));
    const error = await promisify(execFile)(
      process.execPath,
      [
        bin,
        "serve",
        "--workspace",
        workspace,
        "--state-dir",
        path.join(workspace, ".state"),
        "--gateway",
        gateway.url,
        "--gateway-token",
        "not-the-token",
      ],
      { timeout: 60_000 },
    ).catch((e: { code?: number; stderr?: string }) => e);
    expect(error).toMatchObject({ code: 2 });
    expect((error as { stderr: string }).stderr).toMatch(
      new RegExp(`clawtools: --gateway ${gateway.url}: gateway connect: `),
    );
    expect((error as { stderr: string }).stderr).not.toContain("not-the-token");
  }, 90_000);
});
