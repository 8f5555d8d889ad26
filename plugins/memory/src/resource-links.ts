import type { ResourceLinkContent } from "@clawtools/core/resources";

export const MEMORY_FILE_PREFIX = "clawtools://memory/file/";

/** The URI of a memory file, by the path memory_get takes (workspace-relative, `/`-separated). */
export const memoryFileUri = (rel: string) => `${MEMORY_FILE_PREFIX}${encodeURIComponent(rel)}`;

/** A `resource_link` to a memory file (what memory_get and memory_search results carry). */
export const memoryFileLink = (rel: string, size?: number): ResourceLinkContent => ({
  type: "resource_link",
  uri: memoryFileUri(rel),
  name: rel,
  description: `Memory file ${rel}`,
  mimeType: "text/markdown",
  ...(size !== undefined ? { size } : {}),
});
