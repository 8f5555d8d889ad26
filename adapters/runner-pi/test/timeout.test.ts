import { createPiRunner } from "../src/runner.js";
import { startModelServer } from "./model-server.js";
import { describeTimeLimit } from "./shared/time-limit.js";

describeTimeLimit({
  title: "createPiRunner time limit",
  startModel: startModelServer,
  makeRunner: ({ store, baseUrl, clock }) =>
    createPiRunner({ store, model: { model: "openai/scripted", baseUrl, apiKey: "sk-loopback" }, clock }),
});
