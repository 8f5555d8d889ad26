// @clawtools/core/lifecycle: what is started is stopped. Disposers, and child processes whose
// whole process group goes when they or this process do.
export { type DisposeFn, Disposer } from "./disposer.js";
export {
  processGroupReaperPid,
  startProcessGroupReaper,
  superviseProcessGroup,
  supervisedProcessGroups,
} from "./group-reaper.js";
export { type SupervisedChild, spawnSupervised } from "./supervised-spawn.js";
