import type { IncomingHttpHeaders } from "node:http";
import type { AnyAgentTool } from "@clawtools/core";
import { toolInputSchema } from "@clawtools/core/providers";

// SEP-2243 (2026-07-28): a tool parameter marked `x-mcp-header: <Name>` travels in the
// `Mcp-Param-<Name>` HTTP header too, so proxies can route on it; the server checks that the two
// agree before the call runs.

/** The JSON-RPC error for headers that disagree with the body (HTTP 400). */
export const HEADER_MISMATCH = -32020;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

interface HeaderParam {
  header: string;
  path: string[];
  type: unknown;
}

const declared = new WeakMap<object, HeaderParam[]>();

/** The `x-mcp-header` parameters of a schema, reachable through `properties` alone (as SEP-2243 allows). */
export function headerParamsOf(schema: unknown, path: string[] = [], out: HeaderParam[] = []): HeaderParam[] {
  if (!isObject(schema) || !isObject(schema.properties)) return out;
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!isObject(property)) continue;
    const header = property["x-mcp-header"];
    if (typeof header === "string" && header)
      out.push({ header, path: [...path, name], type: property.type });
    headerParamsOf(property, [...path, name], out);
  }
  return out;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A header value as sent: `=?base64?…?=` decoded (undefined when it is not canonical Base64 of UTF-8), else literal. */
export function decodeParamHeader(value: string): string | undefined {
  if (!(value.startsWith("=?base64?") && value.endsWith("?=") && value.length >= 11)) return value;
  const payload = value.slice(9, -2);
  if (!BASE64.test(payload)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(payload, "base64"));
  } catch {
    return undefined;
  }
}

const primitive = (v: unknown) =>
  typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : undefined;

/**
 * Why the `Mcp-Param-*` headers of a `tools/call` disagree with its arguments (a header missing
 * for a value the body carries, one that is not valid Base64, one that says something else), or
 * undefined when they agree or the tool declares none.
 */
export function paramHeaderMismatch(
  tools: readonly AnyAgentTool[],
  body: unknown,
  headers: IncomingHttpHeaders,
): { header: string; message: string } | undefined {
  if (!isObject(body) || body.method !== "tools/call" || !isObject(body.params)) return undefined;
  const tool = tools.find((t) => t.name === (body.params as { name?: unknown }).name);
  if (!tool) return undefined;
  let params = declared.get(tool);
  if (!params) {
    params = headerParamsOf(toolInputSchema(tool.parameters));
    declared.set(tool, params);
  }
  const args = body.params.arguments;
  for (const { header, path, type } of params) {
    let value: unknown = args;
    for (const key of path) value = isObject(value) ? value[key] : undefined;
    const given = primitive(value);
    if (given === undefined) continue;
    const name = `Mcp-Param-${header}`;
    const raw = headers[name.toLowerCase()];
    const sent = Array.isArray(raw) ? raw.join(", ") : raw;
    if (sent === undefined)
      return {
        header: name,
        message: `the body carries ${path.join(".")}=${JSON.stringify(value)} but the ${name} header is absent`,
      };
    const decoded = decodeParamHeader(sent.trim());
    if (decoded === undefined)
      return { header: name, message: `the ${name} header is not valid Base64 (=?base64?…?=)` };
    const numeric = (type === "number" || type === "integer") && typeof value === "number";
    if (numeric ? Number(decoded) !== value : decoded !== given)
      return {
        header: name,
        message: `the ${name} header says ${JSON.stringify(decoded)} but the body carries ${path.join(".")}=${JSON.stringify(value)}`,
      };
  }
  return undefined;
}

/** The 400 answer's error for a `tools/call` whose `Mcp-Param-*` headers disagree with its body. */
export function paramHeaderRejection(
  tools: readonly AnyAgentTool[],
  body: unknown,
  headers: IncomingHttpHeaders,
): { id: unknown; message: string; data: { mismatch: { header: string; body: string } } } | undefined {
  const mismatch = paramHeaderMismatch(tools, body, headers);
  if (!mismatch) return undefined;
  return {
    id: (body as { id?: unknown }).id,
    message: `Bad Request: the request headers and body disagree: ${mismatch.message}`,
    data: { mismatch: { header: mismatch.header, body: mismatch.message } },
  };
}
