export { createMemoryBridge } from "./bridge/memory-bridge.js";
export { createNodeBridge, type NodeBridge, type NodeBridgeOptions } from "./bridge/node-bridge.js";
export { generateDiffString } from "./edit/diff.js";
export type { FsEnv, FsToolOptions } from "./fs-env.js";
export { normalizeInputPath, resolveToolPath } from "./paths.js";
export { createFsPlugin, type FsPluginOptions, default, fsPlugin } from "./plugin.js";
export { type ApplyPatchDetails, applyPatchSchema, createApplyPatchTool } from "./tools/apply-patch.js";
export {
  createEditTool,
  type EditDetails,
  type EditToolOptions,
  editSchema,
  editSchemaWithAliases,
} from "./tools/edit.js";
export { createFindTool, type FindDetails, findSchema } from "./tools/find.js";
export { createGrepTool, type GrepDetails, type GrepToolOptions, grepSchema } from "./tools/grep.js";
export { createLsTool, type LsDetails, lsSchema } from "./tools/ls.js";
export { createReadTool, type ReadDetails, type ReadToolOptions, readSchema } from "./tools/read.js";
export { createWriteTool, writeSchema } from "./tools/write.js";
export { workspaceJournal } from "./journal-api.js";
export { type SeenFiles, createSeenFiles } from "./stale/seen-files.js";
export { createUndoTool, undoSchema } from "./tools/undo.js";
