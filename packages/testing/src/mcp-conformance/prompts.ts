import { definePrompts, type PluginPrompts } from "@clawtools/core/prompts";
import { redPixelPng } from "./media.js";

/** The values the fixture offers for `test_prompt_with_arguments`' arg1 (the suite's example). */
export const ARG1_VALUES = ["paris", "park", "party"];

/**
 * The fixture prompts the official suite's `prompts-*` and `completion-complete` scenarios get,
 * answering as its reference server does: a plain prompt, one with two arguments (arg1 completes
 * from `ARG1_VALUES`), one embedding a resource, one with an image.
 */
export function conformancePrompts(): PluginPrompts {
  return definePrompts({
    prompts: [
      {
        name: "test_simple_prompt",
        description: "A simple prompt without arguments",
        get: () => ({
          messages: [
            { role: "user", content: { type: "text", text: "This is a simple prompt for testing." } },
          ],
        }),
      },
      {
        name: "test_prompt_with_arguments",
        description: "A prompt with two required arguments",
        arguments: [
          {
            name: "arg1",
            description: "First test argument",
            required: true,
            complete: (value) => ARG1_VALUES.filter((v) => v.startsWith(value)),
          },
          { name: "arg2", description: "Second test argument", required: true },
        ],
        get: ({ arg1, arg2 }) => ({
          messages: [
            {
              role: "user",
              content: { type: "text", text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
            },
          ],
        }),
      },
      {
        name: "test_prompt_with_embedded_resource",
        description: "A prompt embedding the resource it is given",
        arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
        get: ({ resourceUri }) => ({
          messages: [
            {
              role: "user",
              content: {
                type: "resource",
                resource: {
                  uri: resourceUri!,
                  mimeType: "text/plain",
                  text: "Embedded resource content for testing.",
                },
              },
            },
            { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
          ],
        }),
      },
      {
        name: "test_prompt_with_image",
        description: "A prompt with an image (a 1x1 red PNG)",
        get: () => ({
          messages: [
            {
              role: "user",
              content: {
                type: "image",
                data: Buffer.from(redPixelPng()).toString("base64"),
                mimeType: "image/png",
              },
            },
            { role: "user", content: { type: "text", text: "Please analyze the image above." } },
          ],
        }),
      },
    ],
  });
}
