import path from "node:path";
import type { ToolContext } from "@clawtools/core";
import {
  MAX_RESOURCE_READ_BYTES,
  type PluginResources,
  ResourceTooLargeError,
  linkedResource,
} from "@clawtools/core/resources";
import { listMemoryFiles, readMemoryFile, rootFor } from "./indexer/files.js";
import { MEMORY_FILE_PREFIX as PREFIX, memoryFileLink } from "./resource-links.js";
import { watchMemoryFiles } from "./resources-watch.js";
import { isMemoryPath, type MemoryGetOptions } from "./tools/memory-get.js";

/**
 * The memory files of a context's workspace as resources, listed and read under memory_get's
 * rules (MEMORY.md, memory.md, memory/**\/*.md and the configured extra paths; never through a
 * link): a client sees the memory of its own workspace, as its memory tools do, and hears when
 * one of them is written, added or removed (watched on disk, by whatever wrote it).
 */
export function memoryResources(
  optionsOf: (ctx: ToolContext) => MemoryGetOptions | undefined,
): PluginResources {
  return {
    list: async (ctx) => {
      const options = optionsOf(ctx);
      if (!options) return [];
      const { files } = await listMemoryFiles(options.workspaceDir, options.extraPaths);
      return files.map((f) => linkedResource(memoryFileLink(f.rel, f.size)));
    },
    templates: () => [
      {
        uriTemplate: `${PREFIX}{path}`,
        name: "memory file",
        description:
          "A memory file by the path memory_get takes, percent-encoded (MEMORY.md, memory%2F2026-01-02.md)",
        mimeType: "text/markdown",
      },
    ],
    read: async (uri, ctx) => {
      const options = optionsOf(ctx);
      if (!options || !uri.startsWith(PREFIX)) return undefined;
      let rel: string;
      try {
        rel = decodeURIComponent(uri.slice(PREFIX.length));
      } catch {
        return undefined;
      }
      const abs = path.resolve(options.workspaceDir, rel);
      if (!isMemoryPath(abs, options)) return undefined;
      const ws = path.resolve(options.workspaceDir);
      const extra = (options.extraPaths ?? [])
        .map((e) => path.resolve(ws, e))
        .find((e) => abs === e || abs.startsWith(`${e}${path.sep}`));
      const place = await rootFor(ws, abs, extra && abs === extra ? path.dirname(extra) : extra);
      if (!place) return undefined;
      try {
        const file = await readMemoryFile({
          root: place.root.root,
          target: place.target,
          real: path.join(place.root.real, place.target),
          rel,
        });
        if (file.size > MAX_RESOURCE_READ_BYTES)
          throw new ResourceTooLargeError(
            uri,
            file.size,
            MAX_RESOURCE_READ_BYTES,
            "read it with memory_get from/lines",
          );
        return { mimeType: "text/markdown", body: file.text };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "ENOTDIR") return undefined;
        throw error;
      }
    },
    watch: (ctx, listener) => {
      const options = optionsOf(ctx);
      if (!options) return () => {};
      return watchMemoryFiles(path.resolve(options.workspaceDir), options.extraPaths, listener);
    },
  };
}
