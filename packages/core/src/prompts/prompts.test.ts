import { describe, expect, it } from "vitest";
import { createToolset } from "../assemble.js";
import { definePlugin } from "../plugin.js";
import { defineResources } from "../resources/define-resources.js";
import { Type } from "../schema.js";
import { completionOf, MAX_COMPLETION_VALUES } from "./completion.js";
import { definePrompts } from "./define-prompts.js";
import { isPromptError } from "./types.js";

const tool = (name: string) => ({
  name,
  description: `The ${name} tool`,
  parameters: Type.Object({}),
  execute: async () => ({ content: [{ type: "text" as const, text: name }], details: undefined }),
});

const greeting = (who: string) =>
  definePrompts({
    prompts: [
      {
        name: "greet",
        description: `Greets from ${who}`,
        arguments: [
          { name: "name", required: true, complete: (v) => ["ada", "alan"].filter((n) => n.startsWith(v)) },
        ],
        get: ({ name }) => ({
          messages: [{ role: "user", content: { type: "text", text: `${who}: hello ${name}` } }],
        }),
      },
    ],
  });

describe("plugin prompts", () => {
  it("checks arguments before filling a prompt, with errors naming the prompt and the argument", async () => {
    const prompts = greeting("a");
    expect(await prompts.get("greet", { name: "ada" }, {})).toEqual({
      messages: [{ role: "user", content: { type: "text", text: "a: hello ada" } }],
    });
    const missing = await Promise.resolve(prompts.get("greet", {}, {})).catch((e: unknown) => e);
    expect(isPromptError(missing)).toBe(true);
    expect(missing).toMatchObject({
      code: -32602,
      message: 'Prompt greet: missing required argument "name"',
      data: { prompt: "greet", argument: "name" },
    });
    expect(await prompts.get("other", {}, {})).toBeUndefined();
    expect(() =>
      definePrompts({ prompts: [...[1, 2]].map(() => ({ name: "x", get: () => ({ messages: [] }) })) }),
    ).toThrow("definePrompts: a prompt name is given twice");
  });

  it("caps completions at MCP's 100 values and says how many there are", () => {
    const many = Array.from({ length: 250 }, (_, i) => `v${i}`);
    expect(completionOf(many)).toMatchObject({ total: 250, hasMore: true });
    expect(completionOf(many).values).toHaveLength(MAX_COMPLETION_VALUES);
    expect(completionOf(["a"])).toEqual({ values: ["a"], total: 1, hasMore: false });
  });

  it("serves a plugin's prompts and template completions with its tools, the first plugin's on a name clash", async () => {
    const plugin = (id: string) =>
      definePlugin({
        id,
        version: "1",
        tools: [{ name: `${id}_tool`, factory: () => tool(`${id}_tool`) }],
        prompts: greeting(id),
        resources: defineResources({
          templates: [
            {
              uriTemplate: `${id}://{item}`,
              name: id,
              read: () => "x",
              complete: { item: (v) => [`${v}-${id}`] },
            },
          ],
        }),
      });
    const both = createToolset({ plugins: [plugin("one"), plugin("two")] });
    expect(await both.prompts.list()).toEqual([
      { name: "greet", description: "Greets from one", arguments: [{ name: "name", required: true }] },
    ]);
    expect((await both.prompts.get("greet", { name: "x" })).messages[0]?.content).toEqual({
      type: "text",
      text: "one: hello x",
    });
    expect((await both.prompts.complete("greet", { argument: "name", value: "a" })).values).toEqual([
      "ada",
      "alan",
    ]);
    expect((await both.resources.complete("two://{item}", { argument: "item", value: "q" })).values).toEqual([
      "q-two",
    ]);
    await expect(both.resources.complete("three://{item}", { argument: "item", value: "" })).rejects.toThrow(
      "Resource not found: three://{item}",
    );
    await expect(both.prompts.get("nothing")).rejects.toThrow("Prompt not found: nothing");

    // the policy left out plugin one's tool: its prompts go with it
    const onlyTwo = createToolset({
      plugins: [plugin("one"), plugin("two")],
      policy: { global: { deny: ["one_tool"] } },
    });
    expect((await onlyTwo.prompts.get("greet", { name: "x" })).messages[0]?.content).toMatchObject({
      text: "two: hello x",
    });
  });
});
