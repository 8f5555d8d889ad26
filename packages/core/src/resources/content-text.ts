import type { ToolContent } from "../tool.js";

/**
 * A content block as text for a model that takes none of its kind: text as is, an embedded text
 * resource as its text, anything else as a placeholder naming what is there (a model cannot
 * open a resource link itself; the host can).
 */
export function contentText(block: ToolContent): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "resource_link":
      return `[resource ${block.uri}${block.mimeType ? ` (${block.mimeType})` : ""}: ${block.name}]`;
    case "resource":
      return (
        block.resource.text ??
        `[resource ${block.resource.uri}${block.resource.mimeType ? ` (${block.resource.mimeType})` : ""}]`
      );
    default:
      return `[${block.type} ${block.mimeType}]`;
  }
}
