import { createPiRunner } from "../src/runner.js";
import { describeSessionsE2e } from "./shared/sessions-e2e.js";

describeSessionsE2e(createPiRunner, {
  title: "sub-agents on the pi-agent-core runner against a loopback model",
});
