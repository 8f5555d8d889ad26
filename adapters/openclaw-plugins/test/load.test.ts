import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type AnyAgentTool, createToolset, type ToolContext } from "@clawtools/core";
import { describe, expect, it } from "vitest";
import { isOpenClawPluginDir, loadOpenClawPlugin, readOpenClawManifest } from "../src/index.js";
import { listenOnOllamaPort } from "./ollama-port.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name: string) => path.join(here, "fixtures", name);
const ollamaDir = path.resolve(here, "../node_modules/@ollama/openclaw-web-search");
const context: ToolContext = { workspaceDir: "/work/space", sessionKey: "agent:cli:main", agentId: "cli" };

const toolsOf = (plugin: Awaited<ReturnType<typeof loadOpenClawPlugin>>["plugin"], ctx = context) =>
  new Map(
    plugin.tools.flatMap((reg) => {
      const out = reg.factory(ctx);
      return (Array.isArray(out) ? out : out ? [out] : []).map((t): [string, AnyAgentTool] => [t.name, t]);
    }),
  );

describe("loadOpenClawPlugin", () => {
  it("loads a TypeScript definePluginEntry plugin: tools, factory context, config, unsupported kinds once each", async () => {
    const lines: string[] = [];
    const loaded = await loadOpenClawPlugin({
      dir: fixture("entry-plugin"),
      config: { greeting: "Ahoy" },
      context,
      log: (line) => lines.push(line),
    });
    expect(loaded.plugin.id).toBe("entry-plugin");
    expect(loaded.plugin.version).toBe("1.2.3");
    expect(loaded.tools).toEqual(["greet", "where_am_i", "secret_tool"]);
    expect(loaded.unsupported).toEqual([
      'on("before_prompt_build")',
      'on("agent_end")',
      "registerService",
      "registerGatewayMethod",
      "registerCli",
    ]);
    expect(lines).toContain("entry-plugin: registering");
    // toolMetadata.optional in the manifest makes the registration optional
    expect(loaded.plugin.tools.map((r) => [r.names, r.optional])).toEqual([
      [["greet"], false],
      [["where_am_i"], false],
      [["secret_tool"], true],
    ]);
    const tools = toolsOf(loaded.plugin);
    expect(await tools.get("greet")!.execute("c1", { who: "Ada" })).toEqual({
      content: [{ type: "text", text: "Ahoy, Ada!" }],
      details: null,
    });
    const where = await tools.get("where_am_i")!.execute("c2", {});
    expect(where.details).toEqual({
      workspaceDir: "/work/space",
      sessionKey: "agent:cli:main",
      sessionId: "agent:cli:main",
      owner: false,
    });
  });

  it("serves the tools through createToolset's pipeline (validation, policy)", async () => {
    const { plugin } = await loadOpenClawPlugin({ dir: fixture("entry-plugin"), context });
    const toolset = createToolset({
      plugins: [plugin],
      context,
      policy: { global: { deny: ["where_am_i"] } },
    });
    const names = toolset.tools.map((t) => t.name);
    expect(names).toContain("greet");
    expect(names).not.toContain("where_am_i");
    const greet = toolset.tools.find((t) => t.name === "greet")!;
    const bad = await greet.execute("c3", {});
    expect(bad.isError).toBe(true);
    expect(await greet.execute("c4", { who: "Bo" })).toMatchObject({ content: [{ text: "Hello, Bo!" }] });
    await toolset.dispose();
  });

  it("loads the declarative defineToolPlugin form: JSON results kept as details, config and context passed", async () => {
    const { plugin, tools: names } = await loadOpenClawPlugin({
      dir: fixture("tool-plugin"),
      context: { ...context, config: { "tool-plugin": { prefix: "> " } } },
    });
    expect(names).toEqual(["echo_json", "echo_text"]);
    const tools = toolsOf(plugin);
    expect(await tools.get("echo_json")!.execute("c5", { input: "hi" })).toEqual({
      content: [{ type: "text", text: JSON.stringify({ input: "hi", length: 2 }, null, 2) }],
      details: { input: "hi", length: 2 },
    });
    expect(await tools.get("echo_text")!.execute("c6", { input: "yo" })).toEqual({
      content: [{ type: "text", text: "> yo @ agent:cli:main" }],
      details: null,
    });
  });

  it("refuses a configuration its configSchema rejects, naming the key", async () => {
    await expect(
      loadOpenClawPlugin({ dir: fixture("entry-plugin"), config: { greeting: 1, extra: true }, context }),
    ).rejects.toThrow(
      /plugin entry-plugin: its configuration does not match its configSchema:[\s\S]*greeting/,
    );
  });

  it("refuses manifests that are not usable, naming the file and the problem", async () => {
    expect(isOpenClawPluginDir(fixture("entry-plugin"))).toBe(true);
    expect(isOpenClawPluginDir(here)).toBe(false);
    expect(() => readOpenClawManifest(fixture("bad-entry"))).toThrow(
      /entry \.\.\/entry-plugin\/index\.ts is outside the package/,
    );
    const dir = mkdtempSync(path.join(tmpdir(), "openclaw-manifest-"));
    writeFileSync(path.join(dir, "openclaw.plugin.json"), JSON.stringify({ name: "no id" }));
    expect(() => readOpenClawManifest(dir)).toThrow(/"id" must be a non-empty string/);
    writeFileSync(path.join(dir, "openclaw.plugin.json"), JSON.stringify({ id: "x" }));
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "x" }));
    expect(() => readOpenClawManifest(dir)).toThrow(
      /openclaw\.extensions must list the plugin's entry files/,
    );
    writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ type: "module", openclaw: { extensions: ["./index.js"] } }),
    );
    writeFileSync(path.join(dir, "index.js"), "export const nothing = 1;\n");
    await expect(loadOpenClawPlugin({ dir })).rejects.toThrow(/exports no OpenClaw plugin entry/);
  });

  it("loads the real @ollama/openclaw-web-search (index.ts under node_modules) and calls its search", async () => {
    const loaded = await loadOpenClawPlugin({ dir: ollamaDir, context });
    expect(loaded.plugin.id).toBe("openclaw-web-search");
    expect(loaded.tools).toEqual(["ollama_web_search", "ollama_web_fetch"]);
    expect(loaded.unsupported).toEqual([]);
    // its URL is fixed to 127.0.0.1:11434: a fake answers there for this call
    const seen: unknown[] = [];
    const server = createServer((req, res) => {
      let raw = "";
      req.on("data", (d) => {
        raw += String(d);
      });
      req.on("end", () => {
        seen.push([req.url, JSON.parse(raw)]);
        res.end(JSON.stringify({ results: [{ title: "T", url: "https://e.x", content: "c" }] }));
      });
    });
    await listenOnOllamaPort(server);
    try {
      const result = await toolsOf(loaded.plugin).get("ollama_web_search")!.execute("c7", { query: "q" });
      expect(result).toEqual({
        content: [{ type: "text", text: "1. T\n   https://e.x\n   c" }],
        details: null,
      });
      expect(seen).toEqual([["/api/experimental/web_search", { query: "q", max_results: 5 }]]);
    } finally {
      server.close();
    }
  });
});
