import { describe, expect, it } from "vitest";
import { createToolset } from "../assemble.js";
import { definePlugin } from "../plugin.js";
import { toAnthropicToolResult } from "../providers/tool-results.js";
import type { AnyAgentTool } from "../tool.js";
import { defineResources } from "./define-resources.js";
import type { PluginResources, ResourceChange } from "./types.js";
import { matchUriTemplate } from "./uri-template.js";

const tool = (name: string): AnyAgentTool => ({
  name,
  description: name,
  parameters: { type: "object", properties: {} },
  execute: async () => ({ content: [{ type: "text", text: name }] }),
});

/** Per-context resources: each session key sees only its own notes. */
function notes(): PluginResources & { emit(change: ResourceChange): void } {
  const listeners = new Set<(change: ResourceChange) => void>();
  return {
    list: (ctx) => [{ uri: `notes://${ctx.sessionKey}/today`, name: "today", mimeType: "text/plain" }],
    read: (uri, ctx) =>
      uri.startsWith(`notes://${ctx.sessionKey}/`) ? { body: `notes of ${ctx.sessionKey}` } : undefined,
    watch: (_ctx, listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit: (change) => {
      for (const listener of listeners) listener(change);
    },
  };
}

describe("resources in the plugin contract", () => {
  it("matches RFC 6570 level-1 templates, decoding values", () => {
    expect(matchUriTemplate("test://template/{id}/data", "test://template/123/data")).toEqual({ id: "123" });
    expect(matchUriTemplate("x://{a}.{b}", "x://one%20two.three")).toEqual({ a: "one two", b: "three" });
    expect(matchUriTemplate("test://template/{id}/data", "test://template/1/2/data")).toBeUndefined();
    expect(matchUriTemplate("test://template/{id}/data", "test://templateX1/data")).toBeUndefined();
  });

  it("defineResources reads fixed resources as text or bytes and templates with their variables", async () => {
    const resources = defineResources({
      resources: [{ uri: "a://text", name: "text", mimeType: "text/plain", read: () => "hello" }],
      templates: [
        { uriTemplate: "a://item/{n}", name: "item", read: (_uri, { n }) => new Uint8Array([Number(n)]) },
      ],
    });
    expect(await resources.list({})).toEqual([{ uri: "a://text", name: "text", mimeType: "text/plain" }]);
    expect(await resources.read("a://text", {})).toEqual({ mimeType: "text/plain", body: "hello" });
    expect(await resources.read("a://item/7", {})).toEqual({ body: new Uint8Array([7]) });
    expect(await resources.read("a://other", {})).toBeUndefined();
    expect(() =>
      defineResources({
        resources: [
          { uri: "a://x", name: "x", read: () => "" },
          { uri: "a://x", name: "y", read: () => "" },
        ],
      }),
    ).toThrow("defineResources: a resource URI is given twice");
  });

  it("a toolset serves a plugin's resources with its own context, and not when the policy denies the plugin's tools", async () => {
    const shared = notes();
    const plugin = definePlugin({
      id: "notes",
      version: "1.0.0",
      tools: [{ factory: tool("notes_add") }],
      resources: shared,
    });
    const alice = createToolset({ plugins: [plugin], context: { sessionKey: "alice" } });
    const bob = createToolset({ plugins: [plugin], context: { sessionKey: "bob" } });
    expect(alice.resources.available).toBe(true);
    expect((await alice.resources.list()).map((r) => r.uri)).toEqual(["notes://alice/today"]);
    expect(await alice.resources.read("notes://alice/today")).toEqual({
      uri: "notes://alice/today",
      text: "notes of alice",
    });
    // bob never reads alice's notes: the same answer as a URI nobody serves
    await expect(bob.resources.read("notes://alice/today")).rejects.toMatchObject({
      code: -32602,
      message: "Resource not found: notes://alice/today",
      data: { uri: "notes://alice/today" },
    });

    const denied = createToolset({ plugins: [plugin], policy: { global: { deny: ["notes_add"] } } });
    expect(denied.resources.available).toBe(false);
    expect(await denied.resources.list()).toEqual([]);
    await expect(denied.resources.read("notes://undefined/today")).rejects.toMatchObject({ code: -32602 });

    const seen: ResourceChange[] = [];
    const stop = alice.resources.watch((change) => seen.push(change));
    shared.emit({ uri: "notes://alice/today" });
    stop();
    shared.emit({});
    expect(seen).toEqual([{ uri: "notes://alice/today" }]);
  });

  it("a model without resource support sees links and embedded resources as text", () => {
    const message = toAnthropicToolResult("t1", {
      content: [
        {
          type: "resource_link",
          uri: "clawtools://runtime/exec-output/s1",
          name: "exec output",
          mimeType: "text/plain",
        },
        { type: "resource", resource: { uri: "a://x", mimeType: "text/plain", text: "inside" } },
      ],
    });
    expect(message.content).toEqual([
      { type: "text", text: "[resource clawtools://runtime/exec-output/s1 (text/plain): exec output]" },
      { type: "text", text: "inside" },
    ]);
  });
});
