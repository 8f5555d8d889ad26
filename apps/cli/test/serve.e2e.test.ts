import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alive, bin, cliDir, ensureBuilt, POLL, repo, text } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

// a process start or a process tree's end can take seconds on a loaded CI machine
const until = async (check: () => boolean, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
};

const stdioClient = (args: string[]) => connectCli(["serve", ...args]);

// The sleeps these tests start are found by their command line (ps): CI runs this file on Node 20
// and Node 24 side by side, so each run's durations carry a suffix of their own.
const RUN = String(process.pid).padStart(7, "0");
const sleepOf = (n: number) => `sleep ${n}${RUN}`;

/** The CLI as a plain child process: exit code and stderr once it ends on its own. */
function run(args: string[], stdin?: string) {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += String(d);
  });
  child.stderr.on("data", (d) => {
    stderr += String(d);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  if (stdin !== undefined) child.stdin.end(stdin);
  return { child, exited, out: () => stdout, err: () => stderr };
}

describe("clawtools serve (built, over stdio MCP)", () => {
  const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-"));
  let client: Client;
  let stderr: () => string;

  beforeAll(async () => {
    ensureBuilt();
    ({ client, stderr } = await stdioClient(["--workspace", workspace, "--max-message-mb", "10"]));
  }, 400_000);

  afterAll(async () => {
    await client?.close();
  });

  it("lists the coding tools with annotations, logging only to stderr, with the version from package.json", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(["read", "write", "edit", "grep", "find", "ls", "exec", "process"]),
    );
    expect(tools.find((t) => t.name === "read")!.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === "write")!.annotations).toMatchObject({ destructiveHint: true });
    // serve's stderr may be read after its answers on stdout (two pipes)
    await expect.poll(stderr, POLL).toContain("[clawtools] serving");
    const version = JSON.parse(readFileSync(path.join(cliDir, "package.json"), "utf8")).version;
    expect(client.getServerVersion()).toEqual({ name: "clawtools", version });
  });

  it("carries the MCP SDK only as @clawtools/mcp pins it (bundled for start-up), never SDK v1", () => {
    // the bundle is @clawtools/mcp's code with the SDK it pins: one MCP implementation, one version
    const mcp = JSON.parse(
      readFileSync(path.join(cliDir, "..", "..", "adapters", "mcp", "package.json"), "utf8"),
    );
    const bundled = new Set<string>();
    for (const file of readdirSync(path.join(cliDir, "dist")).filter((f) => f.endsWith(".js"))) {
      const code = readFileSync(path.join(cliDir, "dist", file), "utf8");
      expect(code).not.toContain("@modelcontextprotocol/sdk");
      for (const m of code.matchAll(/node_modules\/\.pnpm\/@modelcontextprotocol\+(server|client)@([^/_]+)/g))
        bundled.add(`${m[1]}@${m[2]}`);
    }
    expect([...bundled].sort()).toEqual(
      ["client", "server"].map((p) => `${p}@${mcp.dependencies[`@modelcontextprotocol/${p}`]}`),
    );
    const pkg = JSON.parse(readFileSync(path.join(cliDir, "package.json"), "utf8"));
    expect(Object.keys(pkg.dependencies)).not.toContain("@modelcontextprotocol/sdk");
  });

  it("writes, reads and edits a file", async () => {
    expect(
      text(
        await client.callTool({ name: "write", arguments: { path: "notes.md", content: "hello\nworld\n" } }),
      ),
    ).toBe("Successfully wrote 12 bytes to notes.md");
    expect(text(await client.callTool({ name: "read", arguments: { path: "notes.md" } }))).toBe(
      "hello\nworld\n",
    );
    const edited = await client.callTool({
      name: "edit",
      arguments: { path: "notes.md", edits: [{ oldText: "world", newText: "MCP" }] },
    });
    expect(text(edited)).toBe("Successfully replaced 1 block(s) in notes.md.");
    expect(readFileSync(path.join(workspace, "notes.md"), "utf8")).toBe("hello\nMCP\n");
  });

  it("answers a 12 MB message with an error naming the limit, then answers the next call", async () => {
    const big = "x".repeat(12 * 1024 * 1024);
    const error = await client
      .callTool({ name: "write", arguments: { path: "big.txt", content: big } })
      .catch((e: Error) => e);
    expect(error).toMatchObject({ code: -32600 });
    expect((error as Error).message).toMatch(
      /^MCP error -32600: Message too large: 12,58\d,\d{3} bytes is over this server's limit of 10,485,760 bytes \(10 MiB, clawtools serve --max-message-mb\)\./,
    );
    expect(existsSync(path.join(workspace, "big.txt"))).toBe(false);
    expect(text(await client.callTool({ name: "read", arguments: { path: "notes.md" } }))).toBe(
      "hello\nMCP\n",
    );
  });

  it("sends details as structuredContent, refuses an unknown tool with -32602", async () => {
    const r = await client.callTool({ name: "exec", arguments: { command: "echo hi" } });
    expect(text(r)).toBe("hi");
    expect(r.structuredContent).toMatchObject({ status: "completed", exitCode: 0, cwd: workspace });
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: "MCP error -32602: Unknown tool: no_such_tool",
    });
  });

  it("streams exec progress notifications when the client sends a progress token", async () => {
    const progress: string[] = [];
    const r = await client.callTool(
      { name: "exec", arguments: { command: "for i in 1 2 3; do echo tick $i; sleep 0.1; done" } },
      undefined,
      {
        onprogress: (p) => progress.push(p.message ?? ""),
      },
    );
    expect(text(r)).toBe("tick 1\ntick 2\ntick 3");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toContain("tick");
  });

  it("returns isError for a bad call", async () => {
    const r = await client.callTool({ name: "read", arguments: { path: "/etc/passwd" } });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("Path escapes sandbox root");
    const invalid = await client.callTool({ name: "read", arguments: {} });
    expect(invalid.isError).toBe(true);
    expect(JSON.parse(text(invalid))).toMatchObject({
      status: "error",
      tool: "read",
      error: expect.stringContaining('Validation failed for tool "read":\n  - path: is required'),
    });
  });

  it("cancelling a long exec kills its process", async () => {
    const controller = new AbortController();
    const pending = client.callTool(
      { name: "exec", arguments: { command: `sh -c '${sleepOf(5151)} & ${sleepOf(5151)}'` } },
      undefined,
      { signal: controller.signal },
    );
    await until(() => alive(sleepOf(5151)) >= 2);
    expect(alive(sleepOf(5151))).toBeGreaterThanOrEqual(2);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await until(() => alive(sleepOf(5151)) === 0);
    expect(alive(sleepOf(5151))).toBe(0);
  });
});

describe("clawtools serve: stopping", () => {
  const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-stop-"));
  beforeAll(() => ensureBuilt(), 400_000);

  it("refuses requests before initialize, and exits on its own at end of input", async () => {
    const line = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const p = run(["serve", "--workspace", workspace], `${line}\n`);
    expect(await p.exited).toEqual({ code: 0, signal: null });
    expect(JSON.parse(p.out().trim())).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32600,
        message: "Server not initialized: send an initialize request first (MCP lifecycle)",
      },
    });
    expect(p.err()).toContain("[clawtools] stopping (end of input)");
  });

  it("the README's command works from a subdirectory of the checkout, serving that directory", async () => {
    const sub = path.join(repo, "plugins", "fs");
    const line = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const child = spawn("pnpm", ["-s", "-w", "clawtools", "serve"], {
      cwd: sub,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => {
      out += String(d);
    });
    child.stderr.on("data", (d) => {
      err += String(d);
    });
    child.stdin.end(`${line}\n`);
    // 'close', not 'exit': the pipes may still hold its output when it exits
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    expect(err).toContain(`from ${sub}:`);
    expect(JSON.parse(out.trim())).toMatchObject({ id: 1, error: { code: -32600 } });
  }, 120_000);

  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    it(`${signal} kills a background process tree started through exec, then exits`, async () => {
      const marker = sleepOf(signal === "SIGTERM" ? 6161 : signal === "SIGINT" ? 6162 : 6163);
      let serverPid: number | undefined;
      const { client, transport } = await stdioClient(["--workspace", workspace]);
      serverPid = transport.pid ?? undefined;
      const r = await client.callTool({
        name: "exec",
        arguments: { command: `sh -c '${marker} & ${marker} & wait'`, background: true },
      });
      expect(text(r)).toContain("Command still running");
      // and one still running in the foreground, its call unanswered
      const foreground = `${marker}1`;
      const running = client
        .callTool({ name: "exec", arguments: { command: `sh -c '${foreground} & wait'` } })
        .catch((e: Error) => e);
      await until(() => alive(marker) >= 2 && alive(foreground) >= 1);
      expect(alive(marker)).toBeGreaterThanOrEqual(2);
      expect(alive(foreground)).toBeGreaterThanOrEqual(1);
      const exited = new Promise<void>((resolve) => {
        client.onclose = () => resolve();
      });
      process.kill(serverPid!, signal);
      await exited;
      await until(() => alive(marker) === 0);
      expect(alive(marker)).toBe(0);
      expect(await running).toBeInstanceOf(Error);
      await until(() => {
        try {
          process.kill(serverPid!, 0);
          return false;
        } catch {
          return true;
        }
      });
      expect(() => process.kill(serverPid!, 0)).toThrow();
    });
  }
});

describe("clawtools call (built)", () => {
  const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-call-"));
  beforeAll(() => ensureBuilt(), 400_000);

  it("ends what the tool started: a background exec dies with the command", async () => {
    const p = run([
      "call",
      "exec",
      "--workspace",
      workspace,
      "--args",
      JSON.stringify({ command: sleepOf(7171), background: true }),
    ]);
    expect((await p.exited).code).toBe(0);
    expect(p.out()).toContain("Command still running");
    expect(alive(sleepOf(7171))).toBe(0);
  });
});

describe("clawtools serve --config", () => {
  const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-config-"));
  beforeAll(() => ensureBuilt(), 400_000);

  it("applies a section's configuration from the file", async () => {
    const file = path.join(workspace, "clawtools.json");
    writeFileSync(
      file,
      JSON.stringify({ runtime: { exec: { security: "deny" } }, web: { fetch: { enabled: false } } }),
    );
    const { client } = await stdioClient(["--workspace", workspace, "--profile", "full", "--config", file]);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("exec");
    expect(names).not.toContain("web_fetch");
    const denied = await client.callTool({ name: "exec", arguments: { command: "touch ran" } });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toMatch(/exec denied: host=\w+ security=deny/);
    expect(existsSync(path.join(workspace, "ran"))).toBe(false);
    await client.close();
  });

  it("refuses an invalid file before serving: one line on stderr, exit 2", async () => {
    const file = path.join(workspace, "bad.json");
    writeFileSync(file, JSON.stringify({ web: { fetch: { maxChars: "lots" } } }));
    const p = run(["serve", "--workspace", workspace, "--config", file]);
    expect((await p.exited).code).toBe(2);
    expect(p.err().trim().split("\n")).toHaveLength(1);
    expect(p.err()).toMatch(new RegExp(`^clawtools: invalid --config ${file}: web: fetch\\.maxChars: `));
  });
});

describe("clawtools serve --http", () => {
  const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-http-"));
  beforeAll(() => ensureBuilt(), 400_000);

  async function start(args: string[]): Promise<{ child: ChildProcess; url: string }> {
    const p = run(["serve", "--workspace", workspace, ...args]);
    await until(() => /at (http:\S+)/.test(p.err()));
    const url = /at (http:\S+)/.exec(p.err())?.[1];
    if (!url) throw new Error(`no URL in ${p.err()}`);
    return { child: p.child, url };
  }

  it("serves Streamable HTTP on loopback to the SDK's HTTP client", async () => {
    const { child, url } = await start(["--http", "0"]);
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const client = new Client({ name: "e2e-http", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect(text(await client.callTool({ name: "exec", arguments: { command: "echo over-http" } }))).toBe(
        "over-http",
      );
      await client.close();
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("needs a bearer token off loopback, and refuses clients without it", async () => {
    const refused = run(["serve", "--workspace", workspace, "--http", "0", "--host", "0.0.0.0"]);
    expect((await refused.exited).code).toBe(2);
    expect(refused.err()).toBe(
      "clawtools: a bearer token is required to serve MCP over HTTP on 0.0.0.0, which is not a loopback address (set --token or CLAWTOOLS_MCP_TOKEN) (see clawtools serve --help)\n",
    );
    const { child, url } = await start(["--http", "0", "--host", "0.0.0.0", "--token", "e2e-token"]);
    try {
      const local = url.replace("0.0.0.0", "127.0.0.1");
      const anonymous = new Client({ name: "anon", version: "1" });
      await expect(
        anonymous.connect(new StreamableHTTPClientTransport(new URL(local))),
      ).rejects.toMatchObject({
        code: 401,
      });
      const client = new Client({ name: "e2e-token", version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(local), {
          requestInit: { headers: { authorization: "Bearer e2e-token" } },
        }),
      );
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
    } finally {
      child.kill("SIGTERM");
    }
  });
});
