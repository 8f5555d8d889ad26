import { describe, expect, it } from "vitest";
import { createToolset } from "../assemble.js";
import { isToolProtocolError } from "../errors.js";
import { definePlugin } from "../plugin.js";
import {
  type ClientChannel,
  ClientCapabilityError,
  currentClient,
  isClientCapabilityError,
  requireClient,
  runWithClient,
} from "./index.js";

/** A channel that records what it is asked and answers from `answers`. */
function recordingClient(name: string, declared: string[]): ClientChannel & { logs: unknown[] } {
  const logs: unknown[] = [];
  const need = (capability: "elicitation" | "sampling" | "roots") => {
    if (!declared.includes(capability)) throw new ClientCapabilityError(capability);
  };
  return {
    logs,
    supports: (c) => declared.includes(c),
    log: (level, data) => logs.push([level, data]),
    elicit: async () => {
      need("elicitation");
      return { action: "accept", content: { name } };
    },
    sample: async () => {
      need("sampling");
      return { role: "assistant", content: { type: "text", text: name }, model: "m" };
    },
    listRoots: async () => {
      need("roots");
      return [{ uri: `file:///${name}` }];
    },
  };
}

const plugin = definePlugin({
  id: "asks",
  version: "1.0.0",
  tools: [
    {
      name: "ask_name",
      factory: () => ({
        name: "ask_name",
        description: "asks the client's user for a name",
        parameters: { type: "object", properties: {} },
        execute: async () => {
          const client = requireClient("ask_name");
          client.log("info", "asking");
          const answer = await client.elicit({ message: "name?", requestedSchema: { type: "object" } });
          return { content: [{ type: "text" as const, text: `hello ${String(answer.content?.name)}` }] };
        },
      }),
    },
    {
      name: "ask_model",
      factory: () => ({
        name: "ask_model",
        description: "asks the client's model",
        parameters: { type: "object", properties: {} },
        execute: async () => {
          const answer = await requireClient("ask_model").sample({ messages: [], maxTokens: 5 });
          return { content: [{ type: "text" as const, text: String(answer.content.text) }] };
        },
      }),
    },
  ],
});

describe("the client of a tool call (@clawtools/core/client)", () => {
  it("is absent outside a server's call: requireClient fails with one line naming the tool and the fix", async () => {
    expect(currentClient()).toBeUndefined();
    const { tools } = createToolset({ plugins: [plugin] });
    const result = await tools.find((t) => t.name === "ask_name")!.execute("1", {});
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain(
      "ask_name needs to ask its MCP client, and this call has none: call it through an MCP server (clawtools serve)",
    );
    expect(text.split("\n").filter((l) => l.includes(" at "))).toEqual([]);
  });

  it("reaches the tool through the wrap pipeline, one client per call even when calls overlap", async () => {
    const { tools } = createToolset({ plugins: [plugin] });
    const ask = tools.find((t) => t.name === "ask_name")!;
    const ada = recordingClient("ada", ["elicitation"]);
    const bob = recordingClient("bob", ["elicitation"]);
    const [a, b] = await Promise.all([
      runWithClient(ada, () => ask.execute("a", {})),
      runWithClient(bob, () => ask.execute("b", {})),
    ]);
    expect([a.content, b.content]).toEqual([
      [{ type: "text", text: "hello ada" }],
      [{ type: "text", text: "hello bob" }],
    ]);
    expect(ada.logs).toEqual([["info", "asking"]]);
    expect(currentClient()).toBeUndefined();
  });

  it("a question the client cannot answer is a protocol error naming the capability, not a tool result", async () => {
    const { tools } = createToolset({ plugins: [plugin] });
    const ask = tools.find((t) => t.name === "ask_model")!;
    const error = await runWithClient(recordingClient("x", ["elicitation"]), () => ask.execute("1", {})).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isClientCapabilityError(error)).toBe(true);
    expect(isToolProtocolError(error)).toBe(true);
    expect(error).toBeInstanceOf(ClientCapabilityError);
    expect(error).toMatchObject({ code: -32021, capability: "sampling" });
    expect((error as Error).message).toBe(
      "this tool needs the client's sampling capability, which this client did not declare: use a client that supports sampling",
    );
  });
});
