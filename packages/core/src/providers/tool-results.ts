import { contentText } from "../resources/content-text.js";
import type { AgentToolResult } from "../tool.js";

// Tool results in each provider's wire format (the definitions of the tools are in definitions.ts).

/** The text of a result (images and audio become a placeholder) for providers that take a string. */
function resultText(result: AgentToolResult<unknown>): string {
  return result.content.map(contentText).join("\n");
}

const images = (result: AgentToolResult<unknown>) => result.content.filter((b) => b.type === "image");
const dataUrl = (image: { data: string; mimeType: string }) => `data:${image.mimeType};base64,${image.data}`;

/**
 * A tool result as OpenAI Chat messages: the `role: "tool"` message (text only: the API takes
 * no images there), then a user message carrying the images, if any.
 */
export function toOpenAIChatToolMessages(toolCallId: string, result: AgentToolResult<unknown>) {
  const text = result.content
    .filter((b) => b.type !== "image" && b.type !== "audio")
    .map(contentText)
    .join("\n");
  const pictures = images(result);
  const tool = {
    role: "tool" as const,
    tool_call_id: toolCallId,
    content:
      (result.isError ? `Error: ${text}` : text) ||
      (pictures.length ? `(${pictures.length} image(s) attached below)` : ""),
  };
  if (pictures.length === 0) return [tool];
  const user = {
    role: "user" as const,
    content: [
      { type: "text" as const, text: `Image(s) returned by tool call ${toolCallId}:` },
      ...pictures.map((image) => ({ type: "image_url" as const, image_url: { url: dataUrl(image) } })),
    ],
  };
  return [tool, user];
}

/** A tool result as an OpenAI Responses `function_call_output` item with text and image parts. */
export function toOpenAIResponsesOutput(callId: string, result: AgentToolResult<unknown>) {
  if (images(result).length === 0)
    return { type: "function_call_output" as const, call_id: callId, output: resultText(result) };
  return {
    type: "function_call_output" as const,
    call_id: callId,
    output: result.content.map((block) =>
      block.type === "image"
        ? { type: "input_image" as const, image_url: dataUrl(block), detail: "auto" as const }
        : { type: "input_text" as const, text: contentText(block) },
    ),
  };
}

/** A tool result as an Anthropic `tool_result` content block, images kept. */
export function toAnthropicToolResult(toolUseId: string, result: AgentToolResult<unknown>) {
  return {
    type: "tool_result" as const,
    tool_use_id: toolUseId,
    content: result.content.map((block) =>
      block.type !== "image"
        ? { type: "text" as const, text: contentText(block) }
        : {
            type: "image" as const,
            source: {
              type: "base64" as const,
              media_type: block.mimeType as "image/png" | "image/jpeg" | "image/gif" | "image/webp",
              data: block.data,
            },
          },
    ),
    ...(result.isError ? { is_error: true } : {}),
  };
}

/** A tool result as a Gemini `functionResponse` part: `output` or `error`, images as inline parts. */
export function toGeminiFunctionResponse(name: string, result: AgentToolResult<unknown>) {
  const text = result.content
    .filter((b) => b.type !== "image" && b.type !== "audio")
    .map(contentText)
    .join("\n");
  const pictures = images(result);
  return {
    functionResponse: {
      name,
      response: result.isError ? { error: text } : { output: text },
      ...(pictures.length
        ? { parts: pictures.map((image) => ({ inlineData: { mimeType: image.mimeType, data: image.data } })) }
        : {}),
    },
  };
}
