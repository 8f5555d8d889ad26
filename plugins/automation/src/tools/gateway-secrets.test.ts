import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type AgentToolResult, createToolset, Type } from "@clawtools/core";
import { redactSecrets } from "@clawtools/core/safety";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/helpers.js";
import { REDACTED } from "../gateway/config-doc.js";
import { createAutomationPlugin } from "../plugin.js";

const SLACK_HOOK = "https://hooks.slack.com/services/T01/B02/slackHookSecret42";
const DISCORD_HOOK = "https://discord.com/api/webhooks/1234/discordHookSecret42";
const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");

function setup(writes: boolean) {
  const dir = tempDir();
  const file = path.join(dir, "clawtools.json");
  const config = {
    messaging: {
      channels: {
        webhook: { url: SLACK_HOOK, retries: 2 },
        discord: { webhookUrl: DISCORD_HOOK },
        telegram: { botToken: "123456:gatewayDocTelegramToken" },
      },
    },
    site: "https://example.com/docs",
    automation: { gateway: { allowConfigWrites: writes } },
  };
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  const schema = Type.Object({}, { additionalProperties: true });
  const plugin = createAutomationPlugin({ appConfig: { config, path: file, schema } });
  const set = createToolset({
    plugins: [plugin],
    context: { workspaceDir: dir, stateDir: path.join(dir, "state"), config, sessionKey: "agent:main:main" },
    policy: { profile: "full" },
    senderIsOwner: true,
  });
  const tool = set.tools.find((t) => t.name === "gateway")!;
  const call = (args: Record<string, unknown>) =>
    tool.execute("g", args as never) as Promise<AgentToolResult<unknown>>;
  return { call, file, set };
}

describe("gateway config.get and credentials", () => {
  it("masks Slack and Discord webhook URLs like keys, and keeps them through a write that carries the marker", async () => {
    const { call, file, set } = setup(true);
    const got = await call({ action: "config.get" });
    const shown = text(got);
    for (const secret of [SLACK_HOOK, DISCORD_HOOK, "slackHookSecret42", "gatewayDocTelegramToken"])
      expect(shown).not.toContain(secret);
    const { config, hash } = JSON.parse(shown).result;
    expect(config.messaging.channels).toEqual({
      webhook: { url: REDACTED, retries: 2 },
      discord: { webhookUrl: REDACTED },
      telegram: { botToken: REDACTED },
    });
    expect(config.site).toBe("https://example.com/docs");
    // the document's credentials are now secrets of the process: no other result can carry them
    expect(redactSecrets(`posting to ${SLACK_HOOK} failed`)).toBe("posting to [redacted] failed");
    // writing back what config.get showed keeps the stored URLs
    config.messaging.channels.webhook.retries = 5;
    const applied = await call({ action: "config.apply", raw: JSON.stringify(config), baseHash: hash });
    expect(applied.isError, text(applied)).not.toBe(true);
    const stored = JSON.parse(readFileSync(file, "utf8"));
    expect(stored.messaging.channels.webhook).toEqual({ url: SLACK_HOOK, retries: 5 });
    expect(stored.messaging.channels.discord.webhookUrl).toBe(DISCORD_HOOK);
    await set.dispose();
  });
});
