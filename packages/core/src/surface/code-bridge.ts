import { isToolInputError, ToolInputError } from "../errors.js";
import { sanitizeExternalText } from "../external-content.js";
import { contentText } from "../resources/content-text.js";
import { backgroundClock } from "../time/clock.js";
import type { AgentToolResult, AgentToolUpdateCallback } from "../tool.js";
import type { CatalogEntry } from "./catalog.js";
import type { CatalogSnapshot } from "./catalog-snapshot.js";
import type { CodeBinding } from "./code-bindings.js";
import type { SavedResults } from "./code-results.js";
import type { CodeSandboxRequest } from "./code-sandbox.js";
import { type ApiFile, toolDeclaration } from "./declarations.js";

/** What the host answers a run's requests from: one catalog snapshot, named for the guest. */
export type BridgeScope = {
  byCallable: Map<string, CodeBinding>;
  byId: Map<string, CodeBinding>;
  snapshot: CatalogSnapshot;
  apiFiles: Map<string, ApiFile>;
  search: { defaultLimit: number; maxLimit: number };
  toolCallId: string;
  onUpdate?: AgentToolUpdateCallback;
  telemetry: { searchCount: number; describeCount: number; callCount: number };
  /** Called when an MCP server's words (results, descriptions, declarations) reach the guest. */
  observeUntrusted(): void;
  /** Whether this run has seen an MCP server's words (a value it saves keeps that mark). */
  readonly untrusted: boolean;
  /** `results.save` / `load` / `delete`: the session's saved values. */
  results: SavedResults;
};

/** A failed bridge request as the guest sees it: an Error with this message and code. */
export class BridgeFailure extends Error {
  constructor(
    message: string,
    readonly code: "invalid_input" | "tool_error",
  ) {
    super(message);
  }
}

/** A guest timer: core's clock (long delays chained, never holding the process open), cancelled with the request's signal. */
function sleep(ms: number, signal: AbortSignal): Promise<null> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      backgroundClock.clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = backgroundClock.setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(null);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function binding(scope: BridgeScope, callableName: unknown, mcp: boolean): CodeBinding {
  const found = typeof callableName === "string" ? scope.byCallable.get(callableName) : undefined;
  if (!found || (found.guest.source === "mcp") !== mcp)
    throw new ToolInputError(`Unknown catalog function: ${String(callableName)}.`);
  return found;
}

const blockText = (result: AgentToolResult<unknown>) =>
  result.content
    .map((block) =>
      block.type === "image" || block.type === "audio"
        ? `[${block.type}: ${block.mimeType}]`
        : contentText(block),
    )
    .join("\n");

/**
 * A tool's result as the guest receives it: the details its output schema describes, or (no
 * schema) its text and details. A failed call rejects with the tool's own error text.
 */
function guestValue(entry: CatalogEntry, result: AgentToolResult<unknown>): unknown {
  if (result.isError) {
    const error = (result.details as { error?: unknown } | undefined)?.error;
    throw new BridgeFailure(typeof error === "string" ? error : blockText(result), "tool_error");
  }
  if (entry.outputSchema) return result.details ?? null;
  const text = blockText(result);
  return result.details === undefined ? { text } : { text, details: result.details };
}

async function call(scope: BridgeScope, found: CodeBinding, input: unknown, signal: AbortSignal) {
  scope.telemetry.callCount++;
  const id = `${scope.toolCallId}:code:${scope.telemetry.callCount}`;
  // the catalog's tool is the assembled one: validation, policy hooks, approvals, redaction
  return found.entry.tool.execute(id, (input ?? {}) as never, signal, scope.onUpdate);
}

/** Answers one guest request; throws a BridgeFailure (or any error) for a rejection. */
export async function answerRequest(
  request: CodeSandboxRequest,
  scope: BridgeScope,
  signal: AbortSignal,
): Promise<unknown> {
  const [first, second] = request.args;
  switch (request.method) {
    case "call": {
      const found = binding(scope, first, false);
      return guestValue(found.entry, await call(scope, found, second, signal));
    }
    case "mcp": {
      const found = binding(scope, first, true);
      const result = await call(scope, found, second, signal);
      scope.observeUntrusted();
      const structured = (result.details as { structuredContent?: unknown } | undefined)?.structuredContent;
      return {
        content: result.content,
        ...(structured !== undefined ? { structuredContent: structured } : {}),
        ...(result.isError ? { isError: true } : {}),
      };
    }
    case "search": {
      if (typeof first !== "string") throw new ToolInputError("search query must be a string.");
      const requested = (second as { limit?: unknown } | undefined)?.limit;
      const limit =
        typeof requested === "number" && Number.isFinite(requested)
          ? Math.min(scope.search.maxLimit, Math.max(1, Math.floor(requested)))
          : scope.search.defaultLimit;
      scope.telemetry.searchCount++;
      const found = first.trim() ? scope.snapshot.search(first, limit) : [];
      const guests = found.flatMap((entry) => {
        const bound = scope.byId.get(entry.id);
        return bound ? [bound.guest] : [];
      });
      if (guests.some((g) => g.source === "mcp")) scope.observeUntrusted();
      return guests;
    }
    case "describe": {
      const found = typeof first === "string" ? scope.byCallable.get(first) : undefined;
      if (!found) throw new ToolInputError(`Unknown catalog function: ${String(first)}.`);
      scope.telemetry.describeCount++;
      const { entry, guest } = found;
      if (guest.source === "mcp") scope.observeUntrusted();
      return {
        callableName: guest.callableName,
        name: entry.name,
        ...(entry.label ? { label: entry.label } : {}),
        description: guest.source === "mcp" ? sanitizeExternalText(entry.description) : entry.description,
        source: entry.source,
        parameters: entry.parameters,
        ...(entry.outputSchema ? { outputSchema: entry.outputSchema } : {}),
      };
    }
    case "api": {
      const path = String(first);
      const file = scope.apiFiles.get(path);
      if (file) {
        if (path.startsWith("mcp/")) scope.observeUntrusted();
        return file;
      }
      const named = /^tools\/(.+)\.d\.ts$/.exec(path)?.[1];
      const found = named ? scope.byCallable.get(named) : undefined;
      if (!found || found.guest.source === "mcp") throw new ToolInputError(`Unknown API file: ${path}`);
      return toolDeclaration(found);
    }
    case "resultSave":
      return scope.results.save(first, scope.untrusted);
    case "resultLoad": {
      const loaded = scope.results.load(first);
      if (loaded.untrusted) scope.observeUntrusted();
      return loaded.value;
    }
    case "resultDelete":
      return scope.results.delete(first);
    case "sleep": {
      if (typeof first !== "number" || !Number.isFinite(first) || first < 0)
        throw new ToolInputError("setTimeout delay must be a non-negative finite number.");
      return sleep(first, signal);
    }
    default:
      throw new ToolInputError("unsupported code mode bridge method");
  }
}

/** The code a failed request carries into the guest (`error.code`). */
export const failureCode = (error: unknown) =>
  error instanceof BridgeFailure ? error.code : isToolInputError(error) ? "invalid_input" : "tool_error";
