import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { agentRunnerConformance } from "@clawtools/testing";
import { FileSessionStore } from "../src/index.js";
import { createScriptedRunner } from "../src/testing.js";

// The scripted runner is the model itself: its script asks the suite's model, and the messages
// steered in are the turn's later user messages. It takes no tools.
agentRunnerConformance({
  name: "createScriptedRunner: AgentRunner conformance",
  tools: false,
  setup: async ({ model }) => {
    const store = new FileSessionStore(mkdtempSync(path.join(tmpdir(), "scripted-conformance-")));
    const runner = createScriptedRunner({
      store,
      script: async (turn) => {
        const reply = await model.answer({
          userMessages: () => [turn.message, ...turn.steers],
          toolResults: [],
        });
        if ("text" in reply) return reply.text;
        throw new Error(`the scripted runner has no tools (asked for ${reply.toolCall.name})`);
      },
    });
    return {
      runner,
      createSession: async (key) => void (await store.create({ key, agentId: "main", depth: 1 })),
    };
  },
});
