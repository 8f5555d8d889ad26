import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { type LoopbackGateway, startLoopbackGateway } from "@clawtools/gateway/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, POLL, requireBuilt } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

const TOKEN = "gw-token-e2e-5d9c1f7a";
const STARTING = { ok: false, code: "UNAVAILABLE", message: "gateway starting; retry shortly" } as const;

/** `serve --gateway URL …` until it exits; its exit code and stderr. */
async function serveUntilExit(url: string, extra: string[], env: Record<string, string> = {}) {
  const workspace = mkdtempSync(path.join(tmpdir(), "cli-gw-start-"));
  const args = [bin, "serve", "--workspace", workspace, "--state-dir", path.join(workspace, ".state")];
  const run = await promisify(execFile)(process.execPath, [...args, "--gateway", url, ...extra], {
    timeout: 60_000,
    env: { ...process.env, ...env },
  }).catch((e: { code?: number; stderr?: string }) => e);
  return { code: (run as { code?: number }).code, stderr: String((run as { stderr?: string }).stderr) };
}

describe("serve --gateway: a refusing, a starting and a restarting Gateway (loopback WebSocket)", () => {
  const gateways: LoopbackGateway[] = [];
  beforeAll(() => requireBuilt());
  afterAll(async () => {
    for (const g of gateways) await g.stop();
  });
  const gateway = async (onConnect: Parameters<typeof startLoopbackGateway>[0]) => {
    const g = await startLoopbackGateway(onConnect);
    gateways.push(g);
    return g;
  };

  it("a refusal that quotes the token never prints it, flag or environment; the start ends at once", async () => {
    const g = await gateway({
      onConnect: (params) => ({
        ok: false,
        code: "INVALID_REQUEST",
        message: `unauthorized: gateway token mismatch (got ${(params.auth as { token?: string }).token})`,
      }),
    });
    for (const [extra, env] of [
      [["--gateway-token", TOKEN], {}],
      [[], { OPENCLAW_GATEWAY_TOKEN: TOKEN }],
    ] as const) {
      const before = g.connects();
      const { code, stderr } = await serveUntilExit(g.url, [...extra], { ...env });
      expect(code).toBe(2);
      expect(stderr).toContain(
        `clawtools: --gateway ${g.url}: gateway connect: INVALID_REQUEST: unauthorized: gateway token mismatch (got [redacted])`,
      );
      expect(stderr).not.toContain(TOKEN);
      // a refusal is not retried
      expect(g.connects() - before).toBe(1);
      expect(stderr).not.toContain("retrying");
    }
  }, 120_000);

  it("a wrong protocol ends the start at once with the Gateway's reason", async () => {
    const g = await gateway({
      onConnect: () => ({ ok: false, code: "INVALID_REQUEST", message: "protocol mismatch (expected 3)" }),
    });
    const { code, stderr } = await serveUntilExit(g.url, ["--gateway-token", TOKEN]);
    expect(code).toBe(2);
    expect(stderr).toContain("gateway connect: INVALID_REQUEST: protocol mismatch (expected 3)");
    expect(g.connects()).toBe(1);
  }, 60_000);

  it("a Gateway that keeps saying it is starting is retried until the bound, which it names", async () => {
    const g = await gateway({ onConnect: () => STARTING });
    const { code, stderr } = await serveUntilExit(g.url, ["--gateway-token", TOKEN], {
      CLAWTOOLS_GATEWAY_WAIT_S: "2",
    });
    expect(code).toBe(2);
    expect(g.connects()).toBeGreaterThan(1);
    expect(stderr).toContain(
      `[clawtools] gateway ${g.url}: gateway connect: UNAVAILABLE: gateway starting; retry shortly; retrying in`,
    );
    expect(stderr).toContain(
      `clawtools: --gateway ${g.url}: gateway connect: UNAVAILABLE: gateway starting; retry shortly (still so after 2 s of retries)`,
    );
  }, 60_000);

  it("a starting Gateway is waited for, and one that restarts while serve runs is dialled again", async () => {
    let startingFor = 3;
    const g = await gateway({
      onConnect: (_params, n) => (n <= startingFor ? STARTING : { ok: true }),
      onRequest: (method) => (method === "node.list" ? { ts: Date.now(), nodes: [] } : undefined),
    });
    const workspace = mkdtempSync(path.join(tmpdir(), "cli-gw-restart-"));
    const { client, stderr } = await connectCli(
      [
        "serve",
        "--workspace",
        workspace,
        "--profile",
        "full",
        "--owner",
        "--gateway",
        g.url,
        "--gateway-token",
        TOKEN,
      ],
      { env: { XDG_STATE_HOME: path.join(workspace, ".state") }, name: "gw-start" },
    );
    try {
      expect(g.connects()).toBe(4);
      // serve's stderr lines may be read after its answers on stdout (two pipes)
      await expect
        .poll(
          () => stderr().match(/UNAVAILABLE: gateway starting; retry shortly; retrying in/g)?.length,
          POLL,
        )
        .toBe(3);
      await expect
        .poll(stderr, POLL)
        .toContain(`gateway ${g.url} (OpenClaw loopback): through the Gateway: nodes`);
      const first = await client.callTool({ name: "nodes", arguments: { action: "status" } });
      expect(first.isError).toBeFalsy();

      // the Gateway goes away and comes back, answering "starting" twice before it is ready
      startingFor = 2;
      await g.stop();
      await g.start();
      const deadline = Date.now() + 30_000;
      while (g.connects() < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(g.connects()).toBe(3);
      const again = await client.callTool({ name: "nodes", arguments: { action: "status" } });
      expect(again.isError).toBeFalsy();
      expect(stderr()).not.toContain(TOKEN);
    } finally {
      await client.close();
    }
  }, 120_000);
});
