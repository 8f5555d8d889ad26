import { createHash } from "node:crypto";
import { sanitizeExternalText } from "../external-content.js";
import type { CatalogEntry } from "./catalog.js";
import { inputSignature, schemaType } from "./signature.js";

/**
 * What a catalog tool is called inside code mode. A trusted tool is a global async function
 * (`read`, `exec`, `web_fetch`) whose name is its own where JavaScript allows; a mounted MCP
 * server's tool is `MCP.<server>.<tool>`. Only this plain data crosses into the sandbox.
 */
export type GuestBinding = {
  callableName: string;
  name: string;
  label?: string;
  description: string;
  source: CatalogEntry["source"];
  /** Compact TypeScript-style input and output types, as the exec description's index shows them. */
  input: string;
  output?: string;
  /** For MCP tools: the namespace route. */
  server?: string;
  method?: string;
};

export type CodeBinding = { entry: CatalogEntry; guest: GuestBinding };

/** What a tool without an output schema resolves to in the guest: its text, and its details. */
export const TEXT_RESULT_TYPE = "{ text: string; details?: unknown }";
export const MCP_RESULT_TYPE = "McpToolResult";

// OpenClaw 9.6's reserved guest globals and JavaScript's reserved words never name a tool
const RESERVED = new Set(
  (
    "ALL_TOOLS API MCP agents catalog clearTimeout globalThis json log namespaces nodes phase results setTimeout skills text tools yield_control " +
    "AggregateError Array ArrayBuffer Atomics BigInt BigInt64Array BigUint64Array Boolean DataView Date Error EvalError FinalizationRegistry Float32Array Float64Array Function Infinity Int16Array Int32Array Int8Array Intl JSON Map Math NaN Number Object Promise Proxy RangeError ReferenceError Reflect RegExp Set SharedArrayBuffer String Symbol SyntaxError TextDecoder TextEncoder TypeError URIError Uint16Array Uint32Array Uint8Array Uint8ClampedArray WeakMap WeakRef WeakSet WebAssembly console decodeURI decodeURIComponent encodeURI encodeURIComponent escape eval isFinite isNaN parseFloat parseInt undefined unescape " +
    "await break case catch class const continue debugger default delete do else enum export extends false finally for function if implements import in instanceof interface let new null package private protected public return static super switch this throw true try typeof var void while with yield"
  ).split(" "),
);

function identifier(name: string): string {
  const normalized = name.replace(/[^A-Za-z0-9_$]/g, "_");
  return /^[A-Za-z_$]/.test(normalized) && !normalized.startsWith("__") ? normalized : `tool_${normalized}`;
}

function unique(base: string, id: string, used: Set<string>): string {
  if (!used.has(base) && !RESERVED.has(base)) return base;
  const digest = createHash("sha256").update(id).digest("hex");
  for (let length = 8; length <= digest.length; length += 2) {
    const candidate = `${base}_${digest.slice(0, length)}`;
    if (!used.has(candidate)) return candidate;
  }
  throw new Error("could not allocate a unique code mode callable name");
}

const oneLine = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
};

/** Names every catalog entry for the guest: exact names first, so a rename never steals one. */
export function bindCatalog(entries: readonly CatalogEntry[]): CodeBinding[] {
  const used = new Set<string>();
  const bindings: CodeBinding[] = [];
  const trusted = entries
    .filter((e) => e.source !== "mcp")
    .map((entry) => ({ entry, base: identifier(entry.name) }))
    .sort(
      (a, b) =>
        Number(b.base === b.entry.name) - Number(a.base === a.entry.name) ||
        a.base.localeCompare(b.base) ||
        a.entry.id.localeCompare(b.entry.id),
    );
  for (const { entry, base } of trusted) {
    const callableName = unique(base, entry.id, used);
    used.add(callableName);
    bindings.push({
      entry,
      guest: {
        callableName,
        name: entry.name,
        ...(entry.label ? { label: entry.label } : {}),
        description: entry.description,
        source: entry.source,
        input: inputSignature(entry.parameters) ?? "unknown",
        output: entry.outputSchema ? schemaType(entry.outputSchema) : TEXT_RESULT_TYPE,
      },
    });
  }
  const methods = new Map<string, Set<string>>();
  for (const entry of entries.filter((e) => e.source === "mcp")) {
    const server = identifier(entry.sourceName);
    const taken = methods.get(server) ?? new Set<string>();
    methods.set(server, taken);
    const prefix = `${entry.sourceName}__`;
    const method = unique(
      identifier(entry.name.startsWith(prefix) ? entry.name.slice(prefix.length) : entry.name),
      entry.id,
      taken,
    );
    taken.add(method);
    bindings.push({
      entry,
      guest: {
        callableName: `MCP.${server}.${method}`,
        name: entry.name,
        // an MCP server's words are data: flattened, bounded, markers neutralised
        description: sanitizeExternalText(oneLine(entry.description, 512)),
        source: "mcp",
        input: "unknown",
        output: MCP_RESULT_TYPE,
        server,
        method,
      },
    });
  }
  return bindings.sort((a, b) => a.guest.callableName.localeCompare(b.guest.callableName));
}
