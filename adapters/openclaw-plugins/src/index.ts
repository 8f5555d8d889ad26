export { type OpenClawToolContext, openClawToolContext, type RecordedTool } from "./api.js";
export { type LoadedOpenClawPlugin, type LoadOpenClawPluginOptions, loadOpenClawPlugin } from "./load.js";
export { isOpenClawPluginDir, type OpenClawManifest, readOpenClawManifest } from "./manifest.js";
export { defineChannelPluginEntry, definePluginEntry, defineToolPlugin } from "./sdk/plugin-entry.js";
