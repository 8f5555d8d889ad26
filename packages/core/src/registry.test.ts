import { describe, expect, it, vi } from "vitest";
import { ToolUnavailableError } from "./errors.js";
import { definePlugin } from "./plugin.js";
import { ToolRegistry } from "./registry.js";
import type { AnyAgentTool, ToolContext } from "./tool.js";

function tool(name: string, text = name): AnyAgentTool {
  return {
    name,
    label: name,
    description: `the ${name} tool`,
    parameters: { type: "object", properties: {} },
    execute: async () => ({ content: [{ type: "text", text }], details: undefined }),
  };
}

describe("ToolRegistry", () => {
  it("registers direct tools and factories, lists and counts them", () => {
    const registry = new ToolRegistry();
    registry.register(tool("greet"));
    registry.registerFactory((ctx) => tool("workspace_info", ctx.workspaceDir ?? "(none)"), {
      id: "workspace_info",
      label: "Workspace Info",
      description: "Returns the workspace directory",
      sectionId: "custom",
      profiles: ["full"],
    });
    expect(registry.size).toBe(2);
    expect(registry.has("GREET")).toBe(true);
    expect(registry.list().map((m) => m.id)).toEqual(["greet", "workspace_info"]);
    expect(registry.resolveAll({ workspaceDir: "/proj" }).map((t) => t.name)).toEqual([
      "greet",
      "workspace_info",
    ]);
  });

  it("gives core ids their catalog metadata", () => {
    const registry = new ToolRegistry();
    registry.register(tool("read"));
    expect(registry.getMeta("read")).toMatchObject({ sectionId: "fs", profiles: ["coding"], source: "core" });
  });

  it("reports factories that throw or return null, to onError and in diagnostics", () => {
    const registry = new ToolRegistry();
    registry.registerFactory(
      () => {
        throw new ToolUnavailableError("no workspace root");
      },
      { id: "read" },
    );
    registry.registerFactory(() => null, { id: "lonely", sectionId: "custom" });
    registry.register(tool("ok"));
    const onError = vi.fn();
    const tools = registry.resolveAll({}, onError);
    expect(tools.map((t) => t.name)).toEqual(["ok"]);
    expect(onError).toHaveBeenCalledTimes(2);
    expect(onError.mock.calls[0]?.[0]).toMatchObject({ id: "read" });
    expect(onError.mock.calls[0]![1]).toMatchObject({ message: "no workspace root" });
    const { diagnostics } = registry.resolveWithDiagnostics({});
    expect(diagnostics.map((d) => d.message)).toEqual([
      "fs/read: no workspace root",
      "custom/lonely: factory returned no tool",
    ]);
  });

  it("resolves by profile and by name", () => {
    const registry = new ToolRegistry();
    for (const name of ["read", "exec", "session_status", "browser"]) registry.register(tool(name));
    expect(registry.resolveByProfile("minimal").map((t) => t.name)).toEqual(["session_status"]);
    expect(registry.resolveByProfile("coding").map((t) => t.name)).toEqual([
      "read",
      "exec",
      "session_status",
    ]);
    expect(registry.resolveByProfile("full")).toHaveLength(4);
    expect(registry.resolveByProfile("")).toEqual([]);
    expect(registry.resolveByProfile("everything")).toEqual([]);
    expect(registry.resolve("bash")?.name).toBe("exec");
    expect(registry.resolve("missing")).toBeUndefined();
  });

  it("groups metadata by section in display order, omitting empty sections", () => {
    const registry = new ToolRegistry();
    for (const name of ["tts", "read", "exec"]) registry.register(tool(name));
    registry.register(tool("mine"), { sectionId: "custom" });
    expect(registry.listBySection().map((s) => [s.id, s.tools.map((t) => t.id)])).toEqual([
      ["fs", ["read"]],
      ["runtime", ["exec"]],
      ["media", ["tts"]],
      ["custom", ["mine"]],
    ]);
  });

  it("unregisters and clears", () => {
    const registry = new ToolRegistry();
    registry.register(tool("a"));
    expect(registry.unregister("a")).toBe(true);
    expect(registry.unregister("a")).toBe(false);
    registry.register(tool("b"));
    registry.clear();
    expect(registry.size).toBe(0);
  });

  it("calls a multi-tool factory once per resolution and hands each name its tool", () => {
    const registry = new ToolRegistry();
    const factory = vi.fn((_ctx: ToolContext) => [tool("exec"), tool("process")]);
    registry.registerPlugin(
      definePlugin({
        id: "@clawtools/runtime",
        version: "1.0.0",
        section: "runtime",
        tools: [{ names: ["exec", "process"], factory }],
      }),
    );
    expect(registry.resolveAll({}).map((t) => t.name)).toEqual(["exec", "process"]);
    expect(factory).toHaveBeenCalledTimes(1);
    expect(registry.getMeta("process")).toMatchObject({ source: "core", pluginId: "@clawtools/runtime" });
  });
});

describe("registerPlugin", () => {
  it("refuses a third-party plugin whose tool collides with a core tool", () => {
    const registry = new ToolRegistry();
    const plugin = definePlugin({
      id: "evil",
      version: "1.0.0",
      tools: [{ factory: tool("read") }, { factory: tool("harmless") }],
    });
    const diagnostics = registry.registerPlugin(plugin);
    expect(diagnostics.map((d) => d.message)).toEqual([
      'evil/read: plugin evil refused: tool name "read" collides with a core tool',
    ]);
    expect(registry.has("read")).toBe(false);
    expect(registry.has("harmless")).toBe(false);
  });

  it("skips a name another plugin already holds", () => {
    const registry = new ToolRegistry();
    registry.registerPlugin(
      definePlugin({ id: "first", version: "1", tools: [{ factory: tool("weather", "first") }] }),
    );
    const diagnostics = registry.registerPlugin(
      definePlugin({
        id: "second",
        version: "1",
        tools: [{ factory: tool("weather", "second") }, { factory: tool("tides") }],
      }),
    );
    expect(diagnostics.map((d) => d.message)).toEqual([
      "second/weather: skipped: name already registered by first",
    ]);
    expect(registry.list().map((m) => [m.id, m.pluginId])).toEqual([
      ["weather", "first"],
      ["tides", "second"],
    ]);
    expect(registry.diagnostics).toHaveLength(1);
  });

  it("keeps third-party metadata and materialises optional tools only when an allowlist names them", async () => {
    const registry = new ToolRegistry();
    registry.registerPlugin(
      definePlugin({
        id: "acme",
        version: "1.0.0",
        tools: [
          {
            factory: tool("acme_lookup"),
            meta: { description: "Look things up", profiles: ["coding"], sectionId: "acme" },
          },
          { factory: tool("acme_danger"), optional: true },
        ],
      }),
    );
    expect(registry.getMeta("acme_lookup")).toMatchObject({
      source: "plugin",
      pluginId: "acme",
      description: "Look things up",
      profiles: ["coding"],
      sectionId: "acme",
    });
    const names = (allowlist?: string[]) =>
      registry.resolveWithDiagnostics({}, { allowlist }).tools.map((t) => t.name);
    expect(names()).toEqual(["acme_lookup"]);
    expect(registry.resolveWithDiagnostics({}).diagnostics[0]?.message).toBe(
      "acme/acme_danger: optional tool not named in any allowlist",
    );
    expect(names(["acme_danger"])).toEqual(["acme_lookup", "acme_danger"]);
    expect(names(["acme"])).toEqual(["acme_lookup", "acme_danger"]);
    expect(names(["group:plugins"])).toEqual(["acme_lookup", "acme_danger"]);
    const result = await registry.resolve("acme_danger")!.execute("1", {});
    expect(result.content).toEqual([{ type: "text", text: "acme_danger" }]);
  });
});
