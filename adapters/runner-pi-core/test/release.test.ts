import { describeRelease } from "../../runner-pi/test/shared/release.js";
import { createPiCoreRunner } from "../src/runner.js";
import { NODE_TOO_OLD } from "./node.js";

describeRelease(createPiCoreRunner, {
  title: "createPiCoreRunner releases ended runs",
  skip: NODE_TOO_OLD,
});
