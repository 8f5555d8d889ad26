import { type AnyAgentTool, type ClawtoolsPlugin, definePlugin, Type } from "@clawtools/core";
import { type PluginResources, type ResourceChange, ToolsetResources } from "@clawtools/core/resources";
import { describe, expect, it } from "vitest";
import { LateMcpTools } from "./mcp-late-tools.js";
import type { MountedMcpServer } from "./mcp-servers.js";

const tool = (name: string, where = "server"): AnyAgentTool => ({
  name,
  label: name,
  description: where,
  parameters: Type.Object({}),
  execute: async () => ({ content: [{ type: "text", text: where }], details: undefined }),
});

/** A mounted server whose plugin carries its tool names (the build below makes them). */
const server = (name: string, tools: string[]): MountedMcpServer => ({
  plugin: definePlugin({ id: `mcp:${name}`, version: "0.0.0", tools: [] }),
  spec: `mcpServers.${name}`,
  tools,
});
const buildFor =
  (where: string, deny: string[] = []) =>
  (plugin: ClawtoolsPlugin) =>
    (mounted.get(plugin) ?? []).filter((n) => !deny.includes(n)).map((n) => tool(n, where));
const mounted = new Map<ClawtoolsPlugin, string[]>();
const make = (name: string, tools: string[]) => {
  const s = server(name, tools);
  mounted.set(s.plugin, tools);
  return s;
};

describe("LateMcpTools", () => {
  it("every view gets a returning server's tools, built for its own context, and tells listeners", () => {
    const late = new LateMcpTools();
    const early = make("early", ["early__a"]);
    late.add(early); // before start: joins at start
    late.start([tool("read")], buildFor("server"), []);
    expect(late.tools.map((t) => t.name)).toEqual(["read", "early__a"]);
    const session = late.over(
      { tools: [tool("read", "session"), tool("exec", "session")] },
      buildFor("session"),
    );
    let told = 0;
    const off = session.onToolsChanged(() => {
      told += 1;
    });
    const before = session.tools;
    expect(session.tools).toBe(before); // same array until something changes
    late.add(make("flaky", ["flaky__ping"]));
    expect(told).toBe(1);
    expect(session.tools).not.toBe(before);
    expect(session.tools.map((t) => [t.name, t.description])).toEqual([
      ["read", "session"],
      ["exec", "session"],
      ["early__a", "session"],
      ["flaky__ping", "session"],
    ]);
    expect(late.tools.map((t) => t.name)).toEqual(["read", "early__a", "flaky__ping"]);
    off();
    late.remove(["flaky__ping"]);
    expect(told).toBe(1);
    expect(session.tools.map((t) => t.name)).toEqual(["read", "exec", "early__a"]);
  });

  it("a start tool whose server went away is left out, and its fresh copy served when it comes back", () => {
    const late = new LateMcpTools();
    const stale = tool("github__issue", "stale");
    late.start([tool("read"), stale], buildFor("fresh"), []);
    late.remove(["github__issue"]);
    expect(late.tools.map((t) => t.name)).toEqual(["read"]);
    late.add(make("github", ["github__issue"]));
    const served = late.tools.find((t) => t.name === "github__issue");
    expect(served?.description).toBe("fresh");
  });

  it("a server whose tools the policy keeps out changes nothing and tells no one", () => {
    const late = new LateMcpTools();
    late.start([tool("read")], buildFor("server", ["denied__x"]), []);
    const before = late.tools;
    let told = 0;
    late.onChange(() => {
      told += 1;
    });
    late.add(make("denied", ["denied__x"]));
    expect(late.tools).toBe(before);
    expect(told).toBe(0);
  });

  it("a view's resources follow its server: gone when it goes, the fresh one's when it comes back", async () => {
    /** One resource whose text names the connection; `notify` is that connection's update. */
    const docs = (connection: string) => {
      const listeners = new Set<(change: ResourceChange) => void>();
      const resources: PluginResources = {
        list: async () => [{ uri: "clawtools://mcp/docs/readme", name: "readme" }],
        read: async (uri) => (uri === "clawtools://mcp/docs/readme" ? { body: connection } : undefined),
        watch: (_ctx, listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      };
      const notify = () => {
        for (const l of listeners) l({ uri: "clawtools://mcp/docs/readme" });
      };
      return { resources, notify, watching: () => listeners.size };
    };
    const first = docs("first connection");
    const plugin = definePlugin({ id: "mcp:docs", version: "0.0.0", tools: [], resources: first.resources });
    mounted.set(plugin, ["docs__search"]);
    const own = new ToolsetResources([{ pluginId: plugin.id, resources: first.resources }], {});
    const late = new LateMcpTools();
    late.start([tool("docs__search")], buildFor("server"), [], own);
    const view = late.resources!;
    const heard: ResourceChange[] = [];
    const stop = view.watch((change) => heard.push(change));
    first.notify();
    expect(heard).toEqual([{ uri: "clawtools://mcp/docs/readme" }]);
    expect((await view.read("clawtools://mcp/docs/readme")).text).toBe("first connection");

    // it goes away: nothing of it listed or read, the watch left it, the list changed
    late.remove(["docs__search"], plugin);
    expect(await view.list()).toEqual([]);
    await expect(view.read("clawtools://mcp/docs/readme")).rejects.toThrow(/clawtools:\/\/mcp\/docs\/readme/);
    expect(first.watching()).toBe(0);
    expect(heard.at(-1)).toEqual({});

    // it comes back: the new connection's resources, and its updates reach the same watch
    const second = docs("second connection");
    const back = definePlugin({ id: "mcp:docs", version: "0.0.0", tools: [], resources: second.resources });
    mounted.set(back, ["docs__search"]);
    late.add({ plugin: back, spec: "mcpServers.docs", tools: ["docs__search"] });
    expect(heard.at(-1)).toEqual({});
    expect((await view.list()).map((r) => r.uri)).toEqual(["clawtools://mcp/docs/readme"]);
    expect((await view.read("clawtools://mcp/docs/readme")).text).toBe("second connection");
    const before = heard.length;
    second.notify();
    expect(heard.slice(before)).toEqual([{ uri: "clawtools://mcp/docs/readme" }]);
    stop();
    expect(second.watching()).toBe(0);
  });

  it("a returning server whose tools a view's policy keeps out serves that view none of its resources", async () => {
    const resources: PluginResources = {
      list: async () => [{ uri: "clawtools://mcp/denied/x", name: "x" }],
      read: async () => ({ body: "x" }),
    };
    const plugin = definePlugin({ id: "mcp:denied", version: "0.0.0", tools: [], resources });
    mounted.set(plugin, ["denied__x"]);
    const late = new LateMcpTools();
    late.start([tool("read")], buildFor("server", ["denied__x"]), [], new ToolsetResources([], {}));
    late.add({ plugin, spec: "mcpServers.denied", tools: ["denied__x"] });
    expect(await late.resources!.list()).toEqual([]);
    const open = late.over({ tools: [], resources: new ToolsetResources([], {}) }, buildFor("open"));
    expect((await open.resources.list()).map((r) => r.uri)).toEqual(["clawtools://mcp/denied/x"]);
  });
});
