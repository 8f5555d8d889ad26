import { describeSessionsE2e } from "../../runner-pi/test/shared/sessions-e2e.js";
import { createPiCoreRunner } from "../src/runner.js";
import { NODE_TOO_OLD } from "./node.js";

describeSessionsE2e(createPiCoreRunner, {
  title: "sub-agents on the pi-agent-core 1.5 runner against a loopback model",
  skip: NODE_TOO_OLD,
});
