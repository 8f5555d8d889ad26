import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type AgentToolResult, createToolset } from "@clawtools/core";
import { afterAll, describe, expect, it } from "vitest";
import { createMessagingPlugin, type MessagingPluginOptions } from "../src/plugin.js";
import { fakeServer, reply } from "./fake-server.js";

const TELEGRAM = "987654:telegram-token-echoed";
const SLACK = "xoxb-slack-token-echoed-42";
const DISCORD = "discord.bot.token-echoed-42";
const HOOK_TOKEN = "hookQueryToken-echoed-42";

const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");

// Every API here refuses the call and echoes back what it was sent: the path, the headers, the body.
const server = await fakeServer((req, res) => {
  const echo = `${req.method} ${req.path} auth=${req.headers.authorization ?? ""} ${req.raw.toString("utf8")}`;
  if (req.path.startsWith("/bot")) return reply(res, 401, { ok: false, error_code: 401, description: echo });
  if (req.path.startsWith("/slack")) return reply(res, 200, { ok: false, error: echo });
  if (req.path.startsWith("/discord")) return reply(res, 401, { message: echo, code: 0 });
  return reply(res, 403, { error: echo });
});
afterAll(() => server.close());

function message(options: MessagingPluginOptions) {
  const set = createToolset({
    plugins: [createMessagingPlugin(options)],
    context: {
      workspaceDir: mkdtempSync(path.join(tmpdir(), "msg-ws-")),
      stateDir: mkdtempSync(path.join(tmpdir(), "msg-state-")),
    },
    policy: { profile: "messaging" },
  });
  const tool = set.tools.find((t) => t.name === "message")!;
  return (args: Record<string, unknown>) => tool.execute("m", args) as Promise<AgentToolResult<unknown>>;
}

describe("channel errors never carry the channel's credentials", () => {
  it("telegram, slack, discord and a webhook whose APIs echo the token back", async () => {
    const cases: Array<[string, MessagingPluginOptions["channels"], string[]]> = [
      ["telegram", { telegram: { botToken: TELEGRAM, baseUrl: server.base } }, [TELEGRAM]],
      ["slack", { slack: { token: SLACK, baseUrl: `${server.base}/slack` } }, [SLACK]],
      ["discord", { discord: { botToken: DISCORD, baseUrl: `${server.base}/discord` } }, [DISCORD]],
      [
        "webhook",
        {
          webhook: {
            url: `${server.base}/hook?token=${HOOK_TOKEN}`,
            allowPrivateNetwork: true,
            retries: 0,
          },
        },
        [HOOK_TOKEN, `/hook?token=${HOOK_TOKEN}`],
      ],
    ];
    for (const [channel, channels, secrets] of cases) {
      const call = message({ channels });
      const before = server.requests.length;
      const result = await call({ action: "send", channel, target: "42", message: "hello" });
      expect(server.requests.length, channel).toBe(before + 1); // the API really answered
      expect(result.isError, channel).toBe(true);
      const shown = JSON.stringify(result);
      expect(shown, channel).toContain("[redacted]");
      for (const secret of secrets) expect(shown, channel).not.toContain(secret);
      // a dry run shows the request without the credential either
      const dry = text(await call({ action: "send", channel, target: "42", message: "hi", dryRun: true }));
      for (const secret of secrets) expect(dry, `${channel} dryRun`).not.toContain(secret);
    }
  });
});
