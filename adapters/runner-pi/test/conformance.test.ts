import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FileSessionStore } from "@clawtools/sessions";
import { agentRunnerConformance } from "@clawtools/testing";
import { createPiRunner } from "../src/runner.js";
import { startConformanceModel } from "./shared/conformance-model.js";

agentRunnerConformance({
  name: "createPiRunner: AgentRunner conformance",
  setup: async ({ model, tools }) => {
    const server = await startConformanceModel(model);
    const store = new FileSessionStore(mkdtempSync(path.join(tmpdir(), "runner-pi-conformance-")));
    return {
      runner: createPiRunner({
        store,
        model: { model: "openai/scripted", baseUrl: server.baseUrl, apiKey: "sk-loopback" },
        tools: () => ({ tools }),
      }),
      createSession: async (key) => void (await store.create({ key, agentId: "main", depth: 1 })),
      close: server.close,
    };
  },
});
