import {
  type ChatRequest,
  type Reply,
  startModelServer as startLoopbackModel,
} from "../../runner-pi/test/model-server.js";

export { type ChatRequest, contentText, type Reply } from "../../runner-pi/test/model-server.js";

/** runner-pi's loopback model, answering whole or streamed as the request asks (generateText asks whole). */
export const startModelServer = (script: (request: ChatRequest) => Reply | Promise<Reply>) =>
  startLoopbackModel(script, { whole: true });
