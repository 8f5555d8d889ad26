import type { AnyAgentTool, JsonSchema } from "@clawtools/core";
import { systemClock } from "@clawtools/core/time";
import { redPixelPng, toneWav } from "./media.js";

/** The fixture tools take no arguments (the suite calls some with `arguments` left out). */
const NO_ARGUMENTS: JsonSchema = { type: "object", properties: {} };

/** The text `test_error_handling` fails with (the suite's fixture wording). */
export const CONFORMANCE_ERROR_TEXT = "This tool intentionally returns an error for testing";

/** How many progress steps `test_tool_with_progress` reports, and the pause between them. */
const PROGRESS_STEPS = 3;
const PROGRESS_PAUSE_MS = 50;

export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = systemClock.setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      systemClock.clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", stop, { once: true });
  });
}

const tool = (name: string, description: string, execute: AnyAgentTool["execute"]): AnyAgentTool => ({
  name,
  description,
  parameters: NO_ARGUMENTS,
  execute,
});

/**
 * The fixture tools the official MCP conformance suite's server scenarios call
 * (`@modelcontextprotocol/conformance`: tools-call-simple-text, -image, -audio, -embedded-resource,
 * -mixed-content, -error, -with-progress), answering as its reference server does.
 */
export function conformanceTools(): AnyAgentTool[] {
  return [
    tool("test_simple_text", "Tests simple text content response", async () => ({
      content: [{ type: "text", text: "This is a simple text response for testing." }],
    })),
    tool("test_image_content", "Tests image content response (a 1x1 red PNG)", async () => ({
      content: [{ type: "image", data: redPixelPng().toString("base64"), mimeType: "image/png" }],
    })),
    tool("test_audio_content", "Tests audio content response (a short WAV tone)", async () => ({
      content: [{ type: "audio", data: toneWav().toString("base64"), mimeType: "audio/wav" }],
    })),
    tool("test_embedded_resource", "Tests embedded resource content response", async () => ({
      content: [
        {
          type: "resource",
          resource: {
            uri: "test://embedded-resource",
            mimeType: "text/plain",
            text: "This is an embedded resource content.",
          },
        },
      ],
    })),
    tool(
      "test_multiple_content_types",
      "Tests response with text, an image and an embedded resource",
      async () => ({
        content: [
          { type: "text", text: "Multiple content types test:" },
          { type: "image", data: redPixelPng().toString("base64"), mimeType: "image/png" },
          {
            type: "resource",
            resource: {
              uri: "test://mixed-content-resource",
              mimeType: "application/json",
              text: JSON.stringify({ test: "data", value: 123 }),
            },
          },
        ],
      }),
    ),
    tool("test_error_handling", "Tests error response handling (always fails)", async () => {
      throw new Error(CONFORMANCE_ERROR_TEXT);
    }),
    tool(
      "test_tool_with_progress",
      `Tests progress notifications: reports ${PROGRESS_STEPS} steps ${PROGRESS_PAUSE_MS} ms apart`,
      async (_id, _params, signal, onUpdate) => {
        for (let step = 1; step <= PROGRESS_STEPS; step++) {
          if (step > 1) await pause(PROGRESS_PAUSE_MS, signal);
          onUpdate?.({ content: [{ type: "text", text: `Completed step ${step} of ${PROGRESS_STEPS}` }] });
        }
        return { content: [{ type: "text", text: `Progress test completed: ${PROGRESS_STEPS} steps` }] };
      },
    ),
  ];
}
