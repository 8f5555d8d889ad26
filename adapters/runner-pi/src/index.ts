export { createPiRunner, type PiRunnerOptions, type RunTools } from "./runner.js";
export { toPiTool } from "./tools.js";
