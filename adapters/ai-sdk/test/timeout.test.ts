import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { describeTimeLimit } from "../../runner-pi/test/shared/time-limit.js";
import { createAiSdkRunner } from "../src/runner.js";
import { startModelServer } from "./model-server.js";

describeTimeLimit({
  title: "createAiSdkRunner time limit",
  startModel: startModelServer,
  makeRunner: ({ store, baseUrl, clock }) => {
    const provider = createOpenAICompatible({ name: "loopback", baseURL: baseUrl, apiKey: "sk-loopback" });
    return createAiSdkRunner({ store, model: provider.chatModel("scripted"), clock });
  },
  outcome: { status: "timeout", error: "timed out" },
});
