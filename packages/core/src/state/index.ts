export {
  type OnCorrupt,
  type ReadJsonOptions,
  readJsonFile,
  type WriteJsonOptions,
  writeJsonAtomic,
} from "./atomic-json.js";
export { type WriteFileAtomicallyOptions, writeFileAtomically } from "./atomic-write.js";
