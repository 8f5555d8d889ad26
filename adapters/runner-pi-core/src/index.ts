export { createPiCoreRunner, type PiCoreRunnerOptions, type RunTools } from "./runner.js";
export { toPiCoreTool, toPiResult } from "./tools.js";
