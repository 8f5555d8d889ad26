import { describeYieldE2e } from "../../runner-pi/test/shared/yield-e2e.js";
import { createPiCoreRunner } from "../src/runner.js";
import { NODE_TOO_OLD } from "./node.js";

describeYieldE2e(createPiCoreRunner, {
  title: "sessions_yield on the pi-agent-core 1.5 runner",
  skip: NODE_TOO_OLD,
});
