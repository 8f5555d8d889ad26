import type { CompletionRequest, CompletionValues } from "@clawtools/core/prompts";
import type {
  ResourceChange,
  ResourceContents,
  ResourceInfo,
  ResourceTemplateInfo,
} from "@clawtools/core/resources";

// Kept apart from resources.ts: stdio's front declares the capability before it loads the SDK.

/** What the server needs of a toolset's resources (`Toolset.resources` from createToolset). */
export interface McpResourcesLike {
  /** Whether there is anything to serve: the `resources` capability is declared only then. */
  readonly available: boolean;
  list(): Promise<ResourceInfo[]>;
  templates(): Promise<ResourceTemplateInfo[]>;
  read(uri: string): Promise<ResourceContents>;
  watch?(listener: (change: ResourceChange) => void): () => void;
  /** Values for a variable of one of `templates()` (completion/complete of a `ref/resource`). */
  complete?(uriTemplate: string, request: CompletionRequest): Promise<CompletionValues>;
}

/** The `resources` capability of a toolset, or none when it serves no resources. */
export function resourcesCapability(resources: McpResourcesLike | undefined) {
  if (!resources?.available) return {};
  return { resources: { subscribe: true, ...(resources.watch ? { listChanged: true } : {}) } };
}
