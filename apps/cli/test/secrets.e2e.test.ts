import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, it } from "vitest";

const cliDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = path.join(cliDir, "dist", "bin.js");
const TOKEN = "serve-http-token-e2e-7f3a";
const KEY = "xai-env-key-e2e-19c2d";

beforeAll(() => {
  // the end-to-end tests drive the built CLI, as a user would run it
  if (!existsSync(bin))
    execFileSync("pnpm", ["turbo", "run", "build", "--filter=@clawtools/cli..."], {
      cwd: path.resolve(cliDir, "../.."),
      stdio: "ignore",
    });
}, 600_000);

describe("serve --http and the secrets it knows", () => {
  it("--token and the environment's keys never come back in a result, nor on stderr", async () => {
    const workspace = mkdtempSync(path.join(tmpdir(), "cli-secrets-e2e-"));
    const child = spawn(
      process.execPath,
      [bin, "serve", "--workspace", workspace, "--http", "0", "--token", TOKEN],
      {
        stdio: ["ignore", "ignore", "pipe"],
        env: { ...process.env, XAI_API_KEY: KEY },
      },
    );
    let stderr = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on("data", (d) => {
        stderr += String(d);
        const found = /at (http:\S+)/.exec(stderr)?.[1];
        if (found) resolve(found);
      });
      child.on("exit", (code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
    });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    try {
      const client = new Client({ name: "secrets-e2e", version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
        }),
      );
      const result = await client.callTool({
        name: "exec",
        arguments: { command: `printf '%s %s' '${TOKEN}' '${KEY}'` },
      });
      const shown = JSON.stringify(result);
      expect(shown).not.toContain(TOKEN);
      expect(shown).not.toContain(KEY);
      expect(shown).toContain("[redacted] [redacted]");
      await client.close();
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
    expect(stderr).not.toContain(TOKEN);
    expect(stderr).not.toContain(KEY);
  });
});
