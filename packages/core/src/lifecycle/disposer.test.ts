import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { createToolset } from "../assemble.js";
import { definePlugin } from "../plugin.js";
import { ToolRegistry } from "../registry.js";
import { Disposer } from "./disposer.js";

describe("Disposer", () => {
  it("runs clean-ups once, last first, and keeps going after a failure", async () => {
    const order: string[] = [];
    const d = new Disposer();
    d.add(() => void order.push("a"));
    d.add(() => {
      order.push("b");
      throw new Error("b failed");
    });
    d.add(async () => void order.push("c"));
    await expect(d.dispose()).rejects.toThrow("b failed");
    await expect(d.dispose()).rejects.toThrow("b failed");
    expect(order).toEqual(["c", "b", "a"]);
  });
});

describe("plugin and toolset lifecycle", () => {
  const tool = (name: string) => ({
    name,
    label: name,
    description: name,
    parameters: Type.Object({}),
    execute: async () => ({ content: [], details: {} }),
  });

  it("disposes factory resources and owned plugins, concurrent calls sharing one run; a passed registry stays the caller's", async () => {
    const events: string[] = [];
    const plugin = definePlugin({
      id: "p",
      version: "1.0.0",
      tools: [
        {
          name: "t",
          factory: (ctx) => {
            ctx.onDispose?.(() => void events.push("resource"));
            return tool("t");
          },
        },
      ],
      dispose: () => void events.push("plugin"),
    });
    const set = createToolset({ plugins: [plugin], context: { workspaceDir: "/tmp" } });
    expect(set.tools.map((t) => t.name)).toEqual(["t"]);
    await Promise.all([set.dispose(), set.dispose()]);
    expect(events).toEqual(["resource", "plugin"]);

    const registry = new ToolRegistry();
    registry.registerPlugin(plugin);
    const other = createToolset({ registry });
    await other.dispose(); // its own factory resource, not the registry's plugin
    expect(events).toEqual(["resource", "plugin", "resource"]);
    // a plugin used again after a dispose is disposed again (it may hold new resources)
    await Promise.all([registry.dispose(), registry.dispose()]);
    expect(events).toEqual(["resource", "plugin", "resource", "plugin"]);
  });

  it("gives factories a state directory outside the workspace", () => {
    let seen: string | undefined;
    const plugin = definePlugin({
      id: "p",
      version: "1.0.0",
      tools: [
        {
          name: "t",
          factory: (ctx) => {
            seen = ctx.stateDir;
            return tool("t");
          },
        },
      ],
    });
    createToolset({ plugins: [plugin], context: { workspaceDir: "/tmp/ws-a" } });
    expect(seen).toBeDefined();
    expect(seen!.startsWith("/tmp/ws-a")).toBe(false);
    expect(seen).toContain("clawtools");
  });
});
