import { createPiRunner } from "../src/runner.js";
import { describeYieldE2e } from "./shared/yield-e2e.js";

describeYieldE2e(createPiRunner, { title: "sessions_yield on the pi runner" });
