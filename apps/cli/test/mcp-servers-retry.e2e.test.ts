import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, bin, ensureBuilt, POLL } from "./support/cli.js";
import { flakyServerConfig } from "./support/flaky-server.js";
import { connectCli } from "./support/serve.js";

/** `clawtools serve` with a config whose one MCP server fails its first `failures` starts. */
async function serveWithFlakyServer(
  failures: number,
  extra: string[] = [],
  env: Record<string, string> = {},
) {
  const dir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-mcp-retry-"));
  const { config: file, counter, starts } = flakyServerConfig(dir, failures, env);
  const client = new Client({ name: "e2e-mcp-retry", version: "1" });
  // registered before connecting: the notification may come at any time after the start
  let notified = 0;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    notified += 1;
    for (const w of waiters.filter((w) => w.count <= notified)) w.resolve();
  });
  /** Resolves once `count` tools/list_changed notifications have arrived in all. */
  const changes = (count: number) =>
    new Promise<void>((resolve) => {
      if (notified >= count) resolve();
      else waiters.push({ count, resolve });
    });
  const changed = changes(1);
  // no --workspace: serve follows the client's roots (this client offers none), the default way
  const { transport, stderr } = await connectCli(["serve", "--config", file, ...extra], { cwd: dir, client });
  return { client, changed, changes, stderr, starts, counter, transport };
}

describe("clawtools serve: a config MCP server that fails to start is retried", () => {
  beforeAll(() => ensureBuilt(), BUILD_TIMEOUT_MS);

  it("serves its tools once it comes back and tells the client with tools/list_changed", async () => {
    const { client, changed, stderr, starts } = await serveWithFlakyServer(3, ["--profile", "minimal"]);
    try {
      expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
      const before = (await client.listTools()).tools.map((t) => t.name);
      expect(before).not.toContain("flaky__ping");
      await expect
        .poll(stderr, POLL)
        .toContain('[clawtools] MCP server "flaky" did not start and is skipped: ');
      await changed;
      expect(starts()).toBeGreaterThan(3);
      const after = (await client.listTools()).tools.map((t) => t.name);
      expect(after).toContain("flaky__ping");
      // the start's tools are still there
      expect(after).toEqual(expect.arrayContaining(before));
      expect(await client.callTool({ name: "flaky__ping", arguments: { text: "hi" } })).toMatchObject({
        content: [{ type: "text", text: "pong: hi" }],
      });
      await expect
        .poll(stderr, POLL)
        .toContain('[clawtools] MCP server "flaky" came back: serving flaky__ping');
    } finally {
      await client.close();
    }
  }, 120_000);

  it("keeps --deny for a server that comes back: its tools stay out", async () => {
    const { client, stderr } = await serveWithFlakyServer(3, ["--deny", "flaky__ping"]);
    try {
      // nothing new is served, so no list_changed: the stderr line proves it came back
      await expect.poll(stderr, { timeout: 60_000 }).toContain('MCP server "flaky" came back');
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain("flaky__ping");
      await expect(client.callTool({ name: "flaky__ping", arguments: { text: "hi" } })).rejects.toThrow(
        /flaky__ping/,
      );
    } finally {
      await client.close();
    }
  }, 120_000);

  it("takes a server whose connection drops out, and serves it again when it comes back", async () => {
    const { client, changes, stderr } = await serveWithFlakyServer(0, ["--workspace", tmpdir()]);
    try {
      const names = async () => (await client.listTools()).tools.map((t) => t.name);
      expect(await names()).toContain("flaky__ping");
      // the server's process ends mid-call: the call fails, and its tools go
      await client.callTool({ name: "flaky__crash", arguments: {} }).catch(() => undefined);
      await changes(1);
      // the notification (stdout) and the line (stderr) come down two pipes: either may be read first
      await expect.poll(stderr, POLL).toContain('[clawtools] MCP server "flaky" went away');
      // it starts again on the first retry (the fixture only fails its first 0 starts)
      await changes(2);
      expect(await names()).toContain("flaky__ping");
      expect(await client.callTool({ name: "flaky__ping", arguments: { text: "again" } })).toMatchObject({
        content: [{ type: "text", text: "pong: again" }],
      });
      await expect
        .poll(stderr, POLL)
        .toContain('[clawtools] MCP server "flaky" came back: serving flaky__ping, flaky__crash');
    } finally {
      await client.close();
    }
  }, 120_000);

  it("serves a returning server's resources again: the new connection's, and says the list changed", async () => {
    const { client, changes, stderr } = await serveWithFlakyServer(0, ["--workspace", tmpdir()], {
      FLAKY_RESOURCES: "1",
    });
    let listChanges = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      listChanges += 1;
    });
    const status = "clawtools://mcp/flaky/flaky://status";
    const text = async () => {
      const read = await client.readResource({ uri: status });
      return (read.contents[0] as { text?: string }).text;
    };
    const listed = async () => (await client.listResources()).resources.map((r) => r.uri);
    try {
      expect(await listed()).toContain(status);
      // which start of the fixture this connection is (the count is the fixture's, in its file)
      const startOf = async () => Number(/^start (\d+)$/.exec(String(await text()))?.[1]);
      const first = await startOf();
      expect(first).toBeGreaterThanOrEqual(1);
      // a watch is what follows the mounts: a subscription starts one
      await client.subscribeResource({ uri: status });
      await client.callTool({ name: "flaky__crash", arguments: {} }).catch(() => undefined);
      await changes(1);
      await expect.poll(stderr, POLL).toContain('[clawtools] MCP server "flaky" went away');
      expect(await listed()).not.toContain(status);
      await changes(2);
      expect(await listed()).toContain(status);
      // read from the connection that came back, not the one that went
      expect(await startOf()).toBeGreaterThan(first);
      // gone and back: the list changed twice
      await expect.poll(() => listChanges, POLL).toBeGreaterThanOrEqual(2);
    } finally {
      await client.close();
    }
  }, 120_000);

  it("stopping while a retry is under way ends the server process that try started", async () => {
    // starts 1-2 fail, later ones hang in the handshake (ignoring their input's end)
    const dir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-mcp-stop-"));
    const { config: file, counter } = flakyServerConfig(dir, 2, { FLAKY_HANG_FROM: "3" });
    // driven by hand, not by an SDK client: its close() signals serve after 2 s, and a second
    // signal while stopping ends serve at once by design
    const serve = spawn(process.execPath, [bin, "serve", "--config", file, "--workspace", dir], {
      stdio: ["pipe", "ignore", "ignore"],
    });
    const exited = new Promise<number | null>((resolve) => serve.once("exit", resolve));
    const hangs = () =>
      existsSync(`${counter}.hangs`)
        ? readFileSync(`${counter}.hangs`, "utf8").split("\n").filter(Boolean).map(Number)
        : [];
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      // a retry's try is under way: its server process started and hangs
      await expect.poll(() => hangs().length, { timeout: 60_000 }).toBeGreaterThan(0);
      // end of input: serve stops; its retry gives up and ends what it started before serve exits
      serve.stdin!.end();
      expect(await exited).toBe(0);
      for (const pid of hangs()) expect(alive(pid), `hanging server ${pid} outlived serve`).toBe(false);
    } finally {
      serve.kill("SIGKILL");
      for (const pid of hangs()) if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  }, 120_000);
});
