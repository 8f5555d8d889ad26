import type { AgentToolResult, ToolContent } from "./tool.js";

/** Pretty JSON (2-space) as text, the payload itself as details. */
export function jsonResult<T>(payload: T): AgentToolResult<T> {
  return { content: [{ type: "text", text: JSON.stringify(payload, null, 2) }], details: payload };
}

export function textResult<T = undefined>(text: string, details?: T): AgentToolResult<T> {
  return { content: [{ type: "text", text }], details: details as T };
}

export interface ImageResultParams {
  label: string;
  path: string;
  base64: string;
  mimeType: string;
  extraText?: string;
  details?: Record<string, unknown>;
}

/** Optional text, then the image block; details.media.mediaUrl is the image path. */
export function imageResult(params: ImageResultParams): AgentToolResult<Record<string, unknown>> {
  const content: ToolContent[] = [];
  if (params.extraText) content.push({ type: "text", text: params.extraText });
  content.push({ type: "image", data: params.base64, mimeType: params.mimeType });
  return {
    content,
    details: { ...params.details, label: params.label, media: { mediaUrl: params.path } },
  };
}
