import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "./support/cli.js";
import { serveHttp } from "./support/serve.js";

const TOKEN = "serve-http-token-e2e-7f3a";
const KEY = "xai-env-key-e2e-19c2d";

beforeAll(() => ensureBuilt(), 600_000);

describe("serve --http and the secrets it knows", () => {
  it("--token and the environment's keys never come back in a result, nor on stderr", async () => {
    const workspace = mkdtempSync(path.join(tmpdir(), "cli-secrets-e2e-"));
    const { child, url, err } = await serveHttp(["--workspace", workspace, "--token", TOKEN], {
      stdout: "ignore",
      env: { ...process.env, XAI_API_KEY: KEY },
    });
    const exited = new Promise((resolve) => child.on("close", resolve));
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
    expect(err()).not.toContain(TOKEN);
    expect(err()).not.toContain(KEY);
  });
});
