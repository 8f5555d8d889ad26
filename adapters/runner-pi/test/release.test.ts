import { createPiRunner } from "../src/runner.js";
import { describeRelease } from "./shared/release.js";

describeRelease(createPiRunner, { title: "createPiRunner releases ended runs" });
