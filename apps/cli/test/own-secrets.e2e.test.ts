import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, json, requireBuilt, text } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

// serve's own secrets, each a value a command could print (reversed, so redaction cannot hide it)
const SECRETS = {
  PGPASSWORD: "pg-pass-e2e-41c7b2",
  OPENCLAW_GATEWAY_TOKEN: "gw-token-e2e-9a0d3e",
  OPENAI_API_KEY: "sk-own-e2e-77f1aa",
  DATABASE_URL: "postgres://app:db-url-pass-e2e-2b8c@127.0.0.1:1/app",
};
const PASSED = { XAI_API_KEY: "xai-passed-e2e-5e6f" };
const reversed = (s: string) => [...s].reverse().join("");

describe("serve leaves its own secrets out of what it runs", () => {
  let client: Client;
  let dir: string;
  const agent = path.resolve(bin, "../../../../adapters/runner-acp/test/fixtures/acp-agent.mjs");

  beforeAll(async () => {
    requireBuilt();
    dir = mkdtempSync(path.join(tmpdir(), "cli-own-secrets-"));
    const config = path.join(dir, "clawtools.json");
    // the harness writes the environment it got before it starts the test ACP agent
    writeFileSync(
      config,
      JSON.stringify({
        passEnv: ["XAI_API_KEY"],
        acp: {
          command: "/bin/sh",
          // written aside and renamed in: the test never reads a file env is still writing
          args: [
            "-c",
            `env > "${dir}/harness.env.part" && mv "${dir}/harness.env.part" "${dir}/harness.env"; exec "${process.execPath}" "${agent}"`,
          ],
        },
      }),
    );
    ({ client } = await connectCli(
      ["serve", "--workspace", dir, "--profile", "full", "--owner", "--config", config],
      {
        env: {
          ...SECRETS,
          ...PASSED,
          ACP_FIXTURE_DIR: path.join(dir, "agent"),
          XDG_STATE_HOME: path.join(dir, ".state"),
        },
        name: "own-secrets",
      },
    ));
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  const shown = (out: string) => {
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(out, name).not.toContain(reversed(value));
      expect(out, name).not.toContain(value);
    }
  };
  const command = `for v in ${[...Object.keys(SECRETS), ...Object.keys(PASSED)].join(" ")}; do printf '%s=%s\\n' "$v" "$(printenv "$v" | rev)"; done`;

  it("exec: the store password, the Gateway token and provider keys are unset; passEnv passes one on", async () => {
    const out = text(await client.callTool({ name: "exec", arguments: { command } }));
    shown(out);
    for (const name of Object.keys(SECRETS)) expect(out).toContain(`${name}=\n`);
    expect(out).toContain(`XAI_API_KEY=${reversed(PASSED.XAI_API_KEY)}`);
  });

  it("a background process sees none of them either", async () => {
    const started = text(
      await client.callTool({
        name: "exec",
        arguments: { command: `${command}; sleep 0.2`, background: true },
      }),
    );
    const sessionId = /\(session (\S+?),/.exec(started)?.[1];
    expect(sessionId, started).toBeDefined();
    let out = "";
    // up to ~30 s: a process start can take seconds on a loaded CI machine
    for (let i = 0; i < 300 && !out.includes("XAI_API_KEY="); i++) {
      out = text(await client.callTool({ name: "process", arguments: { action: "log", sessionId } }));
      if (!out.includes("XAI_API_KEY=")) await new Promise((r) => setTimeout(r, 100));
    }
    shown(out);
    expect(out).toContain("OPENAI_API_KEY=\n");
    expect(out).toContain(`XAI_API_KEY=${reversed(PASSED.XAI_API_KEY)}`);
  });

  it("nor does a sub-agent's ACP harness", async () => {
    const spawned = json(
      await client.callTool({
        name: "sessions_spawn",
        arguments: { task: "hello", runtime: "acp", label: "env" },
      }),
    );
    expect(spawned.status).toBe("accepted");
    const file = path.join(dir, "harness.env");
    // up to 30 s: the harness is a process start (seconds on a loaded CI machine)
    for (let i = 0; i < 600 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 50));
    const env = readFileSync(file, "utf8");
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(env, name).not.toContain(`${name}=`);
      expect(env, name).not.toContain(value);
    }
    expect(env).toContain(`XAI_API_KEY=${PASSED.XAI_API_KEY}`);
  });
});
