import { describe, expect, it } from "vitest";
import { definePlugin } from "./plugin.js";

describe("definePlugin", () => {
  it("fills pluginId, source and optional on every registration", () => {
    const factory = () => null;
    const plugin = definePlugin({
      id: "acme",
      version: "1.2.3",
      tools: [
        { names: ["a", "b"], factory, source: "acme/tools.js" },
        { name: "c", factory, optional: true },
      ],
    });
    expect(plugin).toMatchObject({ id: "acme", version: "1.2.3" });
    expect(plugin.tools.map(({ factory: _f, ...rest }) => rest)).toEqual([
      { pluginId: "acme", names: ["a", "b"], optional: false, source: "acme/tools.js" },
      { pluginId: "acme", names: ["c"], optional: true, source: "acme" },
    ]);
  });

  it("accepts per-name metadata or one meta for a single name", () => {
    const plugin = definePlugin({
      id: "acme",
      version: "1",
      tools: [
        {
          names: ["x", "y"],
          factory: () => null,
          meta: { x: { description: "X" }, y: { description: "Y" } },
        },
        { name: "z", factory: () => null, meta: { description: "Z" } },
      ],
    });
    expect(plugin.tools[0]?.meta).toEqual({ x: { description: "X" }, y: { description: "Y" } });
    expect(plugin.tools[1]?.meta).toEqual({ z: { description: "Z" } });
  });

  it("refuses a registration without a name", () => {
    expect(() => definePlugin({ id: "acme", version: "1", tools: [{ factory: () => null }] })).toThrow(
      "definePlugin(acme): tools[0] needs a name or names",
    );
  });
});
