import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FileSessionStore } from "@clawtools/sessions";
import { agentRunnerConformance } from "@clawtools/testing";
import { startConformanceModel } from "../../runner-pi/test/shared/conformance-model.js";
import { createPiCoreRunner } from "../src/runner.js";
import { NODE_TOO_OLD, SKIP_REASON } from "./node.js";

agentRunnerConformance({
  name: "createPiCoreRunner: AgentRunner conformance",
  skip: NODE_TOO_OLD && SKIP_REASON,
  setup: async ({ model, tools }) => {
    const server = await startConformanceModel(model);
    const store = new FileSessionStore(mkdtempSync(path.join(tmpdir(), "runner-pi-core-conformance-")));
    return {
      runner: createPiCoreRunner({
        store,
        model: { model: "openai/scripted", baseUrl: server.baseUrl, apiKey: "sk-loopback" },
        tools: () => ({ tools }),
      }),
      createSession: async (key) => void (await store.create({ key, agentId: "main", depth: 1 })),
      close: server.close,
    };
  },
});
