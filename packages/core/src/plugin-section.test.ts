import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { isConfigError } from "./config.js";
import { definePlugin } from "./plugin.js";
import { capabilityOf, pluginCapability, provide, SESSION_SERVICE } from "./plugin-capability.js";
import { defineSectionPlugin, packageInfo } from "./plugin-section.js";
import { textResult } from "./results.js";

const schema = Type.Object({ greeting: Type.Optional(Type.String()) }, { additionalProperties: false });

function fakePackage(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "section-"));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "@acme/hello", version: "1.2.3" }));
  mkdirSync(path.join(dir, "src"));
  return pathToFileURL(path.join(dir, "src", "plugin.ts")).href;
}

describe("packageInfo", () => {
  it("reads the nearest package.json with a name and a version", () => {
    expect(packageInfo(fakePackage())).toEqual({ name: "@acme/hello", version: "1.2.3" });
    expect(packageInfo(import.meta.url).name).toBe("@clawtools/core");
  });

  it("names where it looked when there is none", () => {
    expect(() => packageInfo("/")).toThrow(/no package.json with a name and a version above \//);
  });
});

describe("defineSectionPlugin", () => {
  const make = (config?: Record<string, unknown>) =>
    defineSectionPlugin({
      module: fakePackage(),
      section: "web",
      description: "hello",
      configSchema: schema,
      config: config as { greeting?: string },
      tools: (section) => [
        {
          name: "hello",
          factory: (ctx) => ({
            name: "hello",
            description: "says hello",
            parameters: Type.Object({}),
            execute: async () => textResult(section.read(ctx).greeting ?? "hi"),
          }),
        },
      ],
      members: { answer: 42 },
    });

  it("takes id and version from package.json and wires the tools to each context's config", async () => {
    const plugin = make({ greeting: "from code" });
    expect(plugin).toMatchObject({
      id: "@acme/hello",
      version: "1.2.3",
      section: "web",
      configSchema: schema,
    });
    expect(plugin.answer).toBe(42);
    const tool = plugin.tools[0]!.factory({ config: { web: { greeting: "from config" } } }) as {
      execute: (...a: unknown[]) => Promise<{ content: Array<{ text: string }> }>;
    };
    // options in code win over the context's configuration, key by key
    expect((await tool.execute("1", {})).content[0]!.text).toBe("from code");
    const plain = make().tools[0]!.factory({ config: { web: { greeting: "from config" } } }) as typeof tool;
    expect((await plain.execute("1", {})).content[0]!.text).toBe("from config");
  });

  it("fails at creation on a misspelt key in code, with a ConfigError naming it", () => {
    let error: unknown;
    try {
      make({ greting: "typo" });
    } catch (e) {
      error = e;
    }
    expect(isConfigError(error)).toBe(true);
    expect((error as Error).message).toMatch(/Invalid configuration for web:[\s\S]*greting/);
  });

  it("refuses a member that would replace the plugin's own", () => {
    expect(() =>
      defineSectionPlugin({
        module: fakePackage(),
        section: "web",
        description: "x",
        configSchema: schema,
        tools: () => [],
        members: { tools: [] },
      }),
    ).toThrow(/member "tools" would replace the plugin's own/);
  });
});

describe("capabilities", () => {
  it("are declared by key and read back typed, or undefined", () => {
    const GREETER = pluginCapability<(name: string) => string>("acme.greeter");
    const plugin = definePlugin({
      id: "acme",
      version: "1",
      tools: [],
      capabilities: [provide(GREETER, (name) => `hi ${name}`)],
    });
    expect(capabilityOf(plugin, GREETER)?.("ann")).toBe("hi ann");
    expect(capabilityOf(plugin, SESSION_SERVICE)).toBeUndefined();
    expect(capabilityOf(undefined, GREETER)).toBeUndefined();
    // a member of the same name is not a capability: nothing is guessed by shape
    expect(capabilityOf({ ...plugin, capabilities: {} }, GREETER)).toBeUndefined();
    expect(Object.isFrozen(plugin.capabilities)).toBe(true);
  });

  it("refuse a key given twice and an invalid key", () => {
    const KEY = pluginCapability<number>("acme.n");
    expect(() =>
      definePlugin({ id: "a", version: "1", tools: [], capabilities: [provide(KEY, 1), provide(KEY, 2)] }),
    ).toThrow(/capability acme.n given twice/);
    expect(() => pluginCapability("has space")).toThrow(/invalid key "has space"/);
  });
});
