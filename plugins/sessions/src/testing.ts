// What tests, benchmarks and model-free apps drive the sessions section with.
export { createLivenessHost, type LivenessHost, type LivenessHostOptions } from "./liveness-host.js";
export {
  createScriptedRunner,
  type ScriptedRunnerOptions,
  type ScriptedTurn,
} from "./scripted-runner.js";
