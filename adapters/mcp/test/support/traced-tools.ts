// A toolset with one tool per way a call can end, assembled by core as `serve` assembles its own:
// a success, a tool's own error, a hook's refusal, a tool the policy denies, an internal failure,
// a call whose changes land in the undo journal, and one that can run as a task.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import {
  createToolset,
  definePlugin,
  textResult,
  ToolInputError,
  ToolProtocolError,
  Type,
} from "@clawtools/core";
import { beginJournal } from "@clawtools/core/journal";

const who = Type.Object({ who: Type.String() });

export function tracedToolset(workspaceDir: string, stateDir: string) {
  const plugin = definePlugin({
    id: "traced",
    version: "1.0.0",
    tools: [
      {
        name: "greet",
        factory: () => ({
          name: "greet",
          label: "Greet",
          description: "says hello",
          parameters: who,
          execute: async (_id: string, p: { who: string }) => textResult(`hello ${p.who}`),
        }),
      },
      {
        name: "refuse",
        factory: () => ({
          name: "refuse",
          label: "Refuse",
          description: "always refuses",
          parameters: who,
          execute: async () => {
            throw new ToolInputError("Not for you: ask someone else.");
          },
        }),
      },
      {
        name: "guarded",
        factory: () => ({
          name: "guarded",
          label: "Guarded",
          description: "a hook blocks it",
          parameters: who,
          execute: async () => textResult("never"),
        }),
      },
      {
        name: "secret",
        factory: () => ({
          name: "secret",
          label: "Secret",
          description: "denied by the policy",
          parameters: who,
          execute: async () => textResult("never"),
        }),
      },
      {
        name: "broken",
        factory: () => ({
          name: "broken",
          label: "Broken",
          description: "cannot be carried out",
          parameters: who,
          execute: async () => {
            throw new ToolProtocolError("The store is gone.");
          },
        }),
      },
      {
        name: "save",
        factory: (ctx) => ({
          name: "save",
          label: "Save",
          description: "writes a file, journalled as exec journals its commands",
          parameters: who,
          execute: async (_id: string, p: { who: string }) => {
            const end = await beginJournal(ctx, "save");
            await writeFile(path.join(workspaceDir, `${p.who}.txt`), p.who);
            await end?.();
            return textResult(`saved ${p.who}`);
          },
        }),
      },
      {
        name: "slow",
        factory: () => ({
          name: "slow",
          label: "Slow",
          description: "runs as a task when asked",
          parameters: who,
          taskSupport: "optional",
          execute: async (_id: string, p: { who: string }) => {
            await new Promise((resolve) => setTimeout(resolve, 50));
            return { ...textResult(`late ${p.who}`), isError: p.who === "nobody" };
          },
        }),
      },
    ],
  });
  return createToolset({
    plugins: [plugin],
    context: { workspaceDir, stateDir },
    policy: { global: { deny: ["secret"] } },
    hooks: {
      beforeToolCall: [
        {
          pluginId: "guard",
          handler: (event) =>
            event.toolName === "guarded" ? { block: true, blockReason: "guarded is off today" } : undefined,
        },
      ],
    },
  });
}
