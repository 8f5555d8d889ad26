import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runMain as run } from "./support/main.js";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the CLI's secrets", () => {
  it("a provider key from the environment never comes back in a tool result", async () => {
    const workspace = mkdtempSync(path.join(tmpdir(), "cli-secrets-"));
    vi.stubEnv("XAI_API_KEY", "xai-cli-env-secret-0001");
    const printed = await run([
      "call",
      "exec",
      "--workspace",
      workspace,
      "--args",
      JSON.stringify({ command: "printf 'key=xai-cli-env-secret-0001'" }),
    ]);
    expect(printed).toMatchObject({ code: 0, out: "key=[redacted]" });
  });

  it("the config file's tokens and webhook URLs never come back either, nor reach stderr", async () => {
    const workspace = mkdtempSync(path.join(tmpdir(), "cli-secrets-"));
    const hook = "https://hooks.slack.com/services/T9/B9/cliConfigHookSecret";
    const config = path.join(workspace, "clawtools.json");
    writeFileSync(
      config,
      JSON.stringify({
        messaging: {
          channels: { telegram: { botToken: "5555:cli-config-telegram-token" }, webhook: { url: hook } },
        },
      }),
    );
    const printed = await run([
      "call",
      "exec",
      "--workspace",
      workspace,
      "--config",
      config,
      "--args",
      JSON.stringify({ command: `printf '%s %s' '5555:cli-config-telegram-token' '${hook}'` }),
    ]);
    expect(printed.out).toBe("[redacted] [redacted]");
    expect(printed.err).not.toContain("cli-config-telegram-token");
    expect(printed.err).not.toContain("cliConfigHookSecret");
  });
});
