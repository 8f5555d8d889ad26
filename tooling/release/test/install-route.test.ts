/**
 * The README's route outside a checkout, run as written: pack every package with the README's
 * pnpm line, install the tarballs together in an empty folder with its npm line, and start its
 * `npx clawtools serve`, which must answer `tools/list`. `~` is a scratch home, so the tarballs
 * land in a folder of this test (npm keeps the user's cache). Needs `pnpm build` first.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Scratch } from "../src/tarballs.js";
import { root, run } from "../src/workspace.js";

const scratch = new Scratch();
afterAll(() => scratch.removeAll(), 300_000);

/** The ```sh block under "### Install outside a checkout": its command lines, comments left out. */
function readmeInstallCommands(): string[] {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const start = readme.indexOf("### Install outside a checkout");
  const match = /```sh\n([\s\S]*?)```/.exec(readme.slice(start));
  if (start < 0 || !match)
    throw new Error('README.md has no ```sh block under "### Install outside a checkout"');
  return match[1]!.split("\n").filter((line) => line.trim() && !line.trim().startsWith("#"));
}

/** One JSON-RPC exchange over the server's stdio: initialize, then tools/list. */
function toolsList(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const [file, ...args] = command.split(/\s+/);
    const child = spawn(file!, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stderr.on("data", (d) => {
      err += String(d);
    });
    child.stdout.on("data", (d) => {
      out += String(d);
      for (const line of out.split("\n")) {
        if (!line.trim()) continue;
        const message = JSON.parse(line) as { id?: number; result?: { tools?: Array<{ name: string }> } };
        if (message.id === 1)
          child.stdin.write(
            `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}\n`,
          );
        if (message.id === 2) {
          resolve((message.result?.tools ?? []).map((t) => t.name));
          child.stdin.end();
        }
      }
    });
    child.on("exit", (code) => reject(new Error(`${command} exited (${code}) before tools/list: ${err}`)));
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "install-route", version: "1" } } })}\n`,
    );
  });
}

describe("the README's install outside a checkout", () => {
  it("packs, installs the tarballs together in an empty folder, and npx clawtools serve answers tools/list", async () => {
    const [packLine, installLine, serveLine, ...rest] = readmeInstallCommands();
    expect(rest).toEqual([]);
    expect(packLine).toMatch(/^pnpm -r .* pack --pack-destination ~\/clawtools-tarballs$/);
    expect(installLine).toBe("npm install --ignore-scripts ~/clawtools-tarballs/*.tgz");
    expect(serveLine).toBe("npx clawtools serve");
    const home = scratch.dir("clawtools-install-home-");
    const folder = scratch.dir("clawtools-install-folder-");
    // npm's cache stays the user's: the registry is asked only for what the tarballs depend on
    const cache =
      (await run("npm", ["config", "get", "cache"], { cwd: root })).stdout.trim() ||
      path.join(os.homedir(), ".npm");
    const env = {
      ...process.env,
      HOME: home,
      npm_config_cache: cache,
      npm_config_update_notifier: "false",
      npm_config_fund: "false",
      npm_config_audit: "false",
    };
    await run("bash", ["-c", packLine!], { cwd: root, env, maxBuffer: 64 * 1024 * 1024 });
    await run("bash", ["-c", installLine!], { cwd: folder, env, maxBuffer: 64 * 1024 * 1024 });
    const names = await toolsList(serveLine!, folder, env);
    expect(names).toContain("read");
    expect(names).toContain("exec");
  }, 900_000);
});
