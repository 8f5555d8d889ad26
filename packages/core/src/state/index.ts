// @clawtools/core/state: state files (whole-or-nothing JSON writes, reads that fail closed on a
// torn file) and where the state directory is.
export {
  type OnCorrupt,
  type ReadJsonOptions,
  readJsonFile,
  type WriteJsonOptions,
  writeJsonAtomic,
} from "./atomic-json.js";
export { type WriteFileAtomicallyOptions, writeFileAtomically } from "./atomic-write.js";
export { type ResolveStateDirOptions, resolveStateDir } from "../state-dir.js";
