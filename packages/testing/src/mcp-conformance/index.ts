import { type ClawtoolsPlugin, definePlugin } from "@clawtools/core";
import { ARG1_VALUES, conformancePrompts } from "./prompts.js";
import { conformanceClientTools } from "./client-tools.js";
import { conformanceResources, STATIC_TEXT } from "./resources.js";
import { conformanceSchemaTools, JSON_SCHEMA_2020_12 } from "./schema-tools.js";
import { conformanceTaskTools, FAILING_JOB_TEXT, PROTOCOL_ERROR_TEXT } from "./task-tools.js";
import { CONFORMANCE_ERROR_TEXT, conformanceTools } from "./tools.js";

export {
  ARG1_VALUES,
  JSON_SCHEMA_2020_12,
  CONFORMANCE_ERROR_TEXT,
  FAILING_JOB_TEXT,
  PROTOCOL_ERROR_TEXT,
  STATIC_TEXT,
};

const allTools = () => [
  ...conformanceTools(),
  ...conformanceTaskTools(),
  ...conformanceClientTools(),
  ...conformanceSchemaTools(),
];

/** The fixture tools' names, in the order they are registered. */
export const CONFORMANCE_TOOL_NAMES = allTools().map((t) => t.name);

/**
 * The MCP conformance fixture as a clawtools plugin: `clawtools serve --http 0 --plugin
 * @clawtools/testing/mcp-conformance`, then run `@modelcontextprotocol/conformance server`
 * against it. Only the tool, resource and prompt scenarios the plugin contract can answer are served (see README).
 */
export const plugin: ClawtoolsPlugin = definePlugin({
  id: "mcp-conformance",
  version: "1.0.0",
  description:
    "The MCP conformance suite's fixture tools (test_simple_text, test_image_content, …), resources (test://static-text, …) and prompts (test_simple_prompt, …)",
  tools: [
    {
      names: CONFORMANCE_TOOL_NAMES,
      factory: () => allTools(),
      source: "@clawtools/testing/mcp-conformance",
    },
  ],
  resources: conformanceResources(),
  prompts: conformancePrompts(),
});

export default plugin;
