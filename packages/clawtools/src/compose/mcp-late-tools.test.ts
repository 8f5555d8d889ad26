import { type AnyAgentTool, type ClawtoolsPlugin, definePlugin, Type } from "@clawtools/core";
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
});
