// Every careless start a user can make, through the built CLI: one line on stderr naming the
// problem and the way out, no stack trace, exit code 2, and no waiting for a call to find out.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, bin, ensureBuilt } from "./support/cli.js";

const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-careless-"));

/** Runs the CLI with no input; resolves with its exit code and output (killed after 20 s). */
function run(args: string[], env: NodeJS.ProcessEnv = process.env) {
  return new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: workspace,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    let stdout = "";
    child.stderr.on("data", (d) => {
      stderr += String(d);
    });
    child.stdout.on("data", (d) => {
      stdout += String(d);
    });
    child.stdin.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

/** The one line a careless start must give. */
async function oneLine(args: string[], env?: NodeJS.ProcessEnv): Promise<string> {
  const result = await run(args, env);
  expect(result.stdout).toBe("");
  expect(result.stderr).not.toContain("    at ");
  const lines = result.stderr.trim().split("\n");
  expect(lines, result.stderr).toHaveLength(1);
  expect(result.code, result.stderr).toBe(2);
  return lines[0]!;
}

describe("careless starts", () => {
  let busy: Server;
  let busyPort = 0;
  beforeAll(async () => {
    ensureBuilt();
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    busyPort = (busy.address() as { port: number }).port;
  }, BUILD_TIMEOUT_MS);
  afterAll(() => busy?.close());

  it("serve --http on a port in use names the port and how to pick another", async () => {
    const line = await oneLine(["serve", "--workspace", workspace, "--http", String(busyPort)]);
    expect(line).toContain(`clawtools: --http ${busyPort}: port ${busyPort} on 127.0.0.1 is in use`);
    expect(line).toContain("--http 0 takes a free one");
  });

  it("--model with a provider nobody knows fails the start, naming what to set", async () => {
    const line = await oneLine(["serve", "--workspace", workspace, "--model", "fakeprov/x"]);
    expect(line).toContain('fakeprov/x: no endpoint known for provider "fakeprov": set FAKEPROV_BASE_URL');
  });

  it("an unknown option gets a did-you-mean", async () => {
    expect(await oneLine(["serve", "--wrkspace", workspace])).toBe(
      'clawtools: unknown option "--wrkspace" (did you mean --workspace?) (see clawtools serve --help)',
    );
    expect(await oneLine(["list", "--alow", "read"])).toContain(
      'unknown option "--alow" (did you mean --allow?)',
    );
  });

  it("a workspace that does not exist fails the start, not each call", async () => {
    const missing = path.join(workspace, "not-here");
    expect(await oneLine(["serve", "--workspace", missing])).toContain(
      `clawtools: --workspace ${missing} does not exist: create it (mkdir -p ${missing})`,
    );
  });

  it("a config file that cannot be read names it", async () => {
    expect(
      await oneLine(["serve", "--workspace", workspace, "--config", path.join(workspace, "nope.json")]),
    ).toContain("nope.json");
    expect(await oneLine(["serve", "--workspace", workspace, "--config", workspace])).toContain(workspace);
    const bad = path.join(workspace, "bad.json");
    writeFileSync(bad, "{ not json");
    expect(await oneLine(["serve", "--workspace", workspace, "--config", bad])).toContain(
      "is not valid JSON",
    );
  });

  it("a plugin that is not there says where it was looked for", async () => {
    expect(await oneLine(["serve", "--workspace", workspace, "--plugin", "./missing-plugin.mjs"])).toContain(
      `cannot load it: no such file: ${path.join(workspace, "missing-plugin.mjs")}`,
    );
  });

  it("a store or a Gateway that does not answer fails the start in one line", async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    expect(
      await oneLine([
        "serve",
        "--workspace",
        workspace,
        "--store",
        `postgres://app:s3cret@127.0.0.1:${closed}/db`,
      ]),
    ).toContain(`PostgreSQL store postgres://app@127.0.0.1:${closed}/db`);
    expect(
      // CLAWTOOLS_GATEWAY_WAIT_S=0: no wait for a Gateway that may still be starting (default 60 s)
      await oneLine(["serve", "--workspace", workspace, "--gateway", `ws://127.0.0.1:${closed}`], {
        ...process.env,
        CLAWTOOLS_GATEWAY_WAIT_S: "0",
      }),
    ).toContain(`127.0.0.1:${closed}`);
  });

  it("a tool removed with --deny is reported as denied by --deny", async () => {
    const line = await oneLine(["call", "read", "--workspace", workspace, "--deny", "read", "--args", "{}"]);
    expect(line).toContain('tool "read" is not available: fs/read: denied by --deny');
    const notAllowed = await oneLine([
      "call",
      "read",
      "--workspace",
      workspace,
      "--allow",
      "write",
      "--args",
      "{}",
    ]);
    expect(notAllowed).toContain("fs/read: not allowed by --allow");
  });
});
