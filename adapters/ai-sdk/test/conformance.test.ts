import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { FileSessionStore } from "@clawtools/sessions";
import { agentRunnerConformance } from "@clawtools/testing";
import { startConformanceModel } from "../../runner-pi/test/shared/conformance-model.js";
import { createAiSdkRunner } from "../src/runner.js";

agentRunnerConformance({
  name: "createAiSdkRunner: AgentRunner conformance",
  setup: async ({ model, tools }) => {
    // generateText asks for a whole completion, streamText for chunks: the server answers either
    const server = await startConformanceModel(model, { whole: true });
    const store = new FileSessionStore(mkdtempSync(path.join(tmpdir(), "ai-sdk-conformance-")));
    const provider = createOpenAICompatible({
      name: "loopback",
      baseURL: server.baseUrl,
      apiKey: "sk-loopback",
    });
    return {
      runner: createAiSdkRunner({ store, model: provider.chatModel("scripted"), tools: () => ({ tools }) }),
      createSession: async (key) => void (await store.create({ key, agentId: "main", depth: 1 })),
      close: server.close,
    };
  },
});
