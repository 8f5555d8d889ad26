import { sanitizeExternalText } from "../external-content.js";
import type { JsonSchema } from "../tool.js";
import type { CodeBinding } from "./code-bindings.js";
import { schemaType } from "./signature.js";

/**
 * The typed API code mode offers, as `.d.ts` text a model reads with `API.read(path)`:
 * `tools/<name>.d.ts` per trusted tool (from its input schema and output schema), and
 * `mcp/index.d.ts` / `mcp/<server>.d.ts` for mounted MCP servers. Types are documentation;
 * JSON Schema validation still owns the constraints when a tool is called.
 */
export type ApiFile = { path: string; description?: string; content: string; bytes: number };

const file = (path: string, content: string, description?: string): ApiFile => ({
  path,
  ...(description ? { description } : {}),
  content,
  bytes: Buffer.byteLength(content, "utf8"),
});

const escapeComment = (text: string) => text.replace(/\*\//g, "* /").trim();
const docLines = (text: string | undefined) =>
  text
    ? text
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean)
        .slice(0, 12)
    : [];

/** A doc comment: the description, then one `@param` per top-level input property. */
function docComment(description: string, schema: JsonSchema): string[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const params = Object.entries(properties).flatMap(([name, value]) => {
    const text = docLines(typeof value?.description === "string" ? value.description : "").join(" ");
    const fallback = value && "default" in value ? ` Default: ${JSON.stringify(value.default)}.` : "";
    const line = `${text}${fallback}`.trim();
    return line ? [` * ${escapeComment(`@param ${name}${required.has(name) ? "" : "?"} ${line}`)}`] : [];
  });
  const summary = docLines(description).map((l) => ` * ${escapeComment(l)}`);
  if (!summary.length && !params.length) return [];
  return ["/**", ...summary, ...(summary.length && params.length ? [" *"] : []), ...params, " */"];
}

const inputOptional = (schema: JsonSchema) =>
  !Array.isArray(schema.required) || (schema.required as unknown[]).length === 0;

/** `tools/<callableName>.d.ts` for one trusted tool. */
export function toolDeclaration(binding: CodeBinding): ApiFile {
  const { entry, guest } = binding;
  const output = entry.outputSchema ? schemaType(entry.outputSchema) : (guest.output ?? "unknown");
  const content = [
    "// Generated from the effective tool contract. Unsupported shapes stay unknown.",
    "// JSON Schema validation owns constraints; describe() exposes the original schema.",
    ...(entry.outputSchema
      ? []
      : ["// No output schema: the call resolves to the tool's text and its details."]),
    ...docComment(entry.description, entry.parameters),
    `declare function ${guest.callableName}(input${inputOptional(entry.parameters) ? "?" : ""}: ${schemaType(entry.parameters)}): Promise<${output}>;`,
  ].join("\n");
  return file(`tools/${guest.callableName}.d.ts`, content);
}

const MCP_TYPES = [
  "interface McpToolResult {",
  "  content: unknown[];",
  "  structuredContent?: unknown;",
  "  isError?: boolean;",
  "}",
];

/** `mcp/index.d.ts` and one `mcp/<server>.d.ts` per mounted server (descriptions arrive sanitised). */
export function mcpDeclarations(bindings: readonly CodeBinding[]): ApiFile[] {
  const servers = new Map<string, CodeBinding[]>();
  for (const binding of bindings) {
    const server = binding.guest.server;
    if (binding.guest.source !== "mcp" || !server) continue;
    servers.set(server, [...(servers.get(server) ?? []), binding]);
  }
  if (!servers.size) return [];
  const root = [
    ...[...servers.keys()].map((s) => `/// <reference path="./${s}.d.ts" />`),
    "",
    ...MCP_TYPES,
    "",
    "declare namespace MCP {}",
    "// Call MCP.<server>.<tool>({ ... }) with one object argument matching the tool's input type.",
  ].join("\n");
  return [
    file("mcp/index.d.ts", root, "Root MCP namespace declaration and server list."),
    ...[...servers].map(([server, tools]) => {
      const lines = [`declare namespace MCP.${server} {`];
      for (const { entry, guest } of tools) {
        lines.push(
          "",
          ...docComment(guest.description, entry.parameters).map((l) => `  ${l}`),
          `  function ${guest.method}(input${inputOptional(entry.parameters) ? "?" : ""}: ${schemaType(entry.parameters)}): Promise<McpToolResult>;`,
        );
      }
      lines.push("}");
      return file(
        `mcp/${server}.d.ts`,
        sanitizeExternalText(lines.join("\n")),
        `MCP server declaration for ${server}.`,
      );
    }),
  ];
}
