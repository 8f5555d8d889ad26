// @clawtools/core/resources: resources a plugin serves beside its tools (MCP resources), and
// the content blocks that link them.
export {
  type DefineResourcesInput,
  defineResources,
  type StaticResource,
  type TemplateResource,
} from "./define-resources.js";
export { type ResourceSource, type ServedResources, ToolsetResources } from "./toolset-resources.js";
export type {
  EmbeddedResourceContent,
  PluginResources,
  ResourceBody,
  ResourceChange,
  ResourceContents,
  ResourceInfo,
  ResourceLinkContent,
  ResourceTemplateInfo,
} from "./types.js";
export { isResourceNotFoundError, linkedResource, ResourceNotFoundError } from "./types.js";
export { matchUriTemplate } from "./uri-template.js";
export { contentText } from "./content-text.js";
export {
  type FileBodyOptions,
  isTextMime,
  MAX_RESOURCE_READ_BYTES,
  partCount,
  partsHint,
  RESOURCE_PART_BYTES,
  readFileBody,
  readFilePart,
} from "./file-body.js";
export { type LinkedFile, LinkedFiles, type LinkedFilesOptions, resourceScope } from "./linked-files.js";
export { isResourceTooLargeError, ResourceTooLargeError } from "./too-large.js";
