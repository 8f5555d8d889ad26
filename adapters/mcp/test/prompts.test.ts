import { createToolset, definePlugin } from "@clawtools/core";
import { definePrompts, type PluginPrompts } from "@clawtools/core/prompts";
import { defineResources } from "@clawtools/core/resources";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { type McpHttpServing, PROMPTS_PAGE_SIZE, serveHttp } from "../src/index.js";
import { echoTool } from "./support/echo-tool.js";

// Prompts a plugin contributes, as a host meets them over HTTP with the MCP SDK's clients:
// listed in pages, filled with their arguments, completed, and announced when they change.

let serving: McpHttpServing | undefined;
afterEach(async () => {
  await serving?.stop();
  serving = undefined;
});

const CITIES = ["paris", "park", "party", "rome"];

/** A plugin with one echo tool, 150 numbered prompts and one with arguments, and a template. */
function promptPlugin() {
  const listeners = new Set<() => void>();
  let extra = false;
  const base = definePrompts({
    prompts: [
      {
        name: "trip",
        description: "Plans a trip",
        arguments: [
          {
            name: "city",
            description: "Where to",
            required: true,
            complete: (v) => CITIES.filter((c) => c.startsWith(v)),
          },
          { name: "days", description: "How long" },
        ],
        get: ({ city, days }) => ({
          messages: [
            { role: "user", content: { type: "text", text: `Plan ${days ?? "a few"} days in ${city}` } },
          ],
        }),
      },
      ...Array.from({ length: 150 }, (_, i) => ({
        name: `p${String(i).padStart(3, "0")}`,
        description: `Prompt ${i}`,
        get: () => ({
          messages: [{ role: "user" as const, content: { type: "text" as const, text: `${i}` } }],
        }),
      })),
    ],
  });
  const prompts: PluginPrompts = {
    ...base,
    list: async (ctx) => [
      ...(await base.list(ctx)),
      ...(extra ? [{ name: "late", description: "Came later" }] : []),
    ],
    watch: (_ctx, listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const plugin = definePlugin({
    id: "prompting",
    version: "1.0.0",
    tools: [{ name: "echo", factory: echoTool() }],
    prompts,
    resources: defineResources({
      templates: [
        {
          uriTemplate: "city://{name}/weather",
          name: "weather",
          read: (_uri, { name }) => `sunny in ${name}`,
          complete: { name: (v) => CITIES.filter((c) => c.startsWith(v)) },
        },
      ],
    }),
  });
  return {
    plugin,
    addPrompt() {
      extra = true;
      for (const l of listeners) l();
    },
  };
}

const legacyClient = async (url: string) => {
  const client = new ClientV1({ name: "legacy", version: "1" });
  await client.connect(new HttpV1(new URL(url)));
  return client;
};

describe("prompts over MCP", () => {
  it("lists prompts in pages, fills them, refuses bad arguments and completes prompt and template arguments", async () => {
    const { plugin } = promptPlugin();
    serving = await serveHttp(createToolset({ plugins: [plugin] }), { port: 0, signals: false });
    const client = await legacyClient(serving.url);
    expect(client.getServerCapabilities()).toMatchObject({ prompts: { listChanged: true }, completions: {} });

    const first = await client.listPrompts();
    expect(first.prompts).toHaveLength(PROMPTS_PAGE_SIZE);
    expect(first.prompts[0]).toEqual({
      name: "trip",
      description: "Plans a trip",
      arguments: [
        { name: "city", description: "Where to", required: true },
        { name: "days", description: "How long" },
      ],
    });
    const second = await client.listPrompts({ cursor: first.nextCursor! });
    expect(second.nextCursor).toBeUndefined();
    expect([...first.prompts, ...second.prompts].map((p) => p.name)).toHaveLength(151);
    await expect(client.listPrompts({ cursor: "bogus" })).rejects.toThrow(/Invalid cursor: bogus/);

    expect(await client.getPrompt({ name: "trip", arguments: { city: "rome", days: "3" } })).toMatchObject({
      messages: [{ role: "user", content: { type: "text", text: "Plan 3 days in rome" } }],
    });
    await expect(client.getPrompt({ name: "trip", arguments: {} })).rejects.toThrow(
      'Prompt trip: missing required argument "city"',
    );
    await expect(client.getPrompt({ name: "trip", arguments: { city: "x", mood: "y" } })).rejects.toThrow(
      'Prompt trip takes no argument "mood" (it takes city, days)',
    );
    await expect(client.getPrompt({ name: "nowhere" })).rejects.toThrow(/-32602.*Prompt not found: nowhere/);

    const complete = (ref: Record<string, string>, value: string) =>
      client.complete({
        ref: ref as never,
        argument: { name: ref.type === "ref/prompt" ? "city" : "name", value },
      });
    expect((await complete({ type: "ref/prompt", name: "trip" }, "par")).completion).toEqual({
      values: ["paris", "park", "party"],
      total: 3,
      hasMore: false,
    });
    expect(
      (await complete({ type: "ref/resource", uri: "city://{name}/weather" }, "r")).completion.values,
    ).toEqual(["rome"]);
    // an argument without a completer offers nothing
    expect(
      (
        await client.complete({
          ref: { type: "ref/prompt", name: "trip" },
          argument: { name: "days", value: "" },
        })
      ).completion.values,
    ).toEqual([]);
    await expect(complete({ type: "ref/prompt", name: "nowhere" }, "x")).rejects.toThrow(/Prompt not found/);
    await client.close();
  });

  it("tells a 2025-era session and a 2026-07-28 listen stream when the prompts change", async () => {
    const { plugin, addPrompt } = promptPlugin();
    serving = await serveHttp(createToolset({ plugins: [plugin] }), { port: 0, signals: false });
    const legacy = await legacyClient(serving.url);
    const heard: string[] = [];
    legacy.setNotificationHandler(
      (await import("@modelcontextprotocol/sdk/types.js")).PromptListChangedNotificationSchema,
      () => void heard.push("legacy"),
    );
    const modern = new ClientV2({ name: "modern", version: "1" }, { versionNegotiation: { mode: "auto" } });
    await modern.connect(new HttpV2(new URL(serving.url)));
    modern.setNotificationHandler("notifications/prompts/list_changed", () => void heard.push("modern"));
    const subscription = await modern.listen({ promptsListChanged: true });
    addPrompt();
    await expect.poll(() => heard.sort()).toEqual(["legacy", "modern"]);
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await modern.listPrompts(cursor ? { cursor } : undefined);
      // the 2026-07-28 wire's caching hints: each client's list is its own
      expect(page).toMatchObject({ ttlMs: 0, cacheScope: "private" });
      names.push(...page.prompts.map((p) => p.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(names.at(-1)).toBe("late");
    await subscription.close();
    await modern.close();
    await legacy.close();
  });

  it("serves no prompts when the policy leaves out every tool of their plugin", async () => {
    const { plugin } = promptPlugin();
    const toolset = createToolset({ plugins: [plugin], policy: { global: { deny: ["echo"] } } });
    expect(toolset.prompts.available).toBe(false);
    serving = await serveHttp(toolset, { port: 0, signals: false });
    const client = await legacyClient(serving.url);
    expect(client.getServerCapabilities()?.prompts).toBeUndefined();
    await expect(client.listPrompts()).rejects.toThrow(/-32601/);
    await client.close();
  });
});
