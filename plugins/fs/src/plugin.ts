import { type ClawtoolsPlugin, defineSectionPlugin, type ToolContext } from "@clawtools/core";
import type { Journal } from "@clawtools/core/journal";
import { configPart, fsConfigSchema } from "./config.js";
import { createApplyPatchTool } from "./tools/apply-patch.js";
import { createEditTool, type EditToolOptions } from "./tools/edit.js";
import { createFindTool } from "./tools/find.js";
import { createGrepTool, type GrepToolOptions } from "./tools/grep.js";
import { createLsTool } from "./tools/ls.js";
import { createReadTool, type ReadToolOptions } from "./tools/read.js";
import { createUndoTool } from "./tools/undo.js";
import { createWriteTool } from "./tools/write.js";

export type FsPluginOptions = ReadToolOptions & EditToolOptions & GrepToolOptions;

const READ_ONLY_EXTRA = { profiles: ["coding" as const], readOnly: true, sectionId: "fs" };

/**
 * The fs section: read, write, edit, apply_patch (catalog) plus grep, find, ls. Options given
 * here are validated against `config.fs`'s schema now; each toolset reads `ctx.config.fs`
 * merged with them (options in code win key by key).
 */
export function createFsPlugin(options: FsPluginOptions = {}): ClawtoolsPlugin {
  // the journals this section's toolsets record into: dispose closes their inotify watches and files
  const journals = new Set<Journal>();
  const onJournal = (journal: Journal) => void journals.add(journal);
  return defineSectionPlugin({
    module: import.meta.url,
    description: "Files: read, write, edit, apply_patch, grep, find, ls over a pluggable FsBridge; undo",
    section: "fs",
    configSchema: fsConfigSchema,
    config: configPart(options),
    tools: (config) => {
      const with_ =
        <T>(make: (ctx: ToolContext, o: FsPluginOptions) => T) =>
        (ctx: ToolContext) =>
          make(ctx, { ...options, ...config.read(ctx), onJournal });
      return [
        { name: "read", factory: with_(createReadTool) },
        { name: "write", factory: with_(createWriteTool) },
        { name: "edit", factory: with_(createEditTool) },
        { name: "apply_patch", factory: with_(createApplyPatchTool) },
        {
          name: "grep",
          factory: with_(createGrepTool),
          meta: { ...READ_ONLY_EXTRA, label: "grep", description: "Search file contents for a pattern" },
        },
        {
          name: "find",
          factory: with_(createFindTool),
          meta: { ...READ_ONLY_EXTRA, label: "find", description: "Find files by glob pattern" },
        },
        {
          name: "ls",
          factory: with_(createLsTool),
          meta: { ...READ_ONLY_EXTRA, label: "ls", description: "List directory contents" },
        },
        {
          name: "undo",
          factory: with_(createUndoTool),
          meta: {
            profiles: ["coding" as const],
            sectionId: "fs",
            label: "undo",
            description: "Undo and redo workspace changes",
            ownerOnly: true,
            destructive: true,
          },
        },
      ];
    },
    // the set is kept: tools made before a dispose still record (and reopen) after it
    dispose: () => {
      for (const journal of journals) journal.dispose();
    },
  });
}

export const fsPlugin: ClawtoolsPlugin = createFsPlugin();
export default fsPlugin;
