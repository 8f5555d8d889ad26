import { ProtocolError, type Server, type ServerContext } from "@modelcontextprotocol/server";
import type { McpPromptsLike } from "./prompts-capability.js";
import type { McpResourcesLike } from "./resources-capability.js";

/** Prompts per `prompts/list` page. */
export const PROMPTS_PAGE_SIZE = 100;

const cursorOf = (offset: number) => Buffer.from(`prompts:${offset}`).toString("base64url");

/** The offset a `prompts/list` cursor stands for; -32602 for one this server did not give. */
function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const match = /^prompts:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match)
    throw new ProtocolError(
      -32602,
      `Invalid cursor: ${cursor} (use the nextCursor of a prompts/list answer)`,
    );
  return Number(match[1]);
}

/** A failure a plugin reports with a JSON-RPC code keeps it; anything else is an internal error naming what failed. */
function protocolErrorOf(error: unknown, what: string): ProtocolError {
  if (error instanceof ProtocolError) return error;
  const coded = error as { code?: unknown; data?: unknown; message?: string };
  if (typeof coded.code === "number") return new ProtocolError(coded.code, coded.message ?? "", coded.data);
  return new ProtocolError(-32603, `${what} failed: ${coded.message ?? String(error)}`);
}

/**
 * Serves a toolset's prompts on `server`: `prompts/list` (paged: `nextCursor` while more remain;
 * the 2026-07-28 wire adds the caching hints), `prompts/get` (-32602 for a prompt nobody serves
 * or arguments it cannot take), and `notifications/prompts/list_changed` on a 2025-era connection
 * when the list changes.
 */
export function servePrompts(
  server: Server,
  prompts: McpPromptsLike,
  before: (ctx: ServerContext) => void | Promise<void>,
): void {
  server.setRequestHandler("prompts/list", async (request, ctx) => {
    await before(ctx);
    const all = await prompts.list();
    const offset = offsetOf(request.params?.cursor);
    const end = offset + PROMPTS_PAGE_SIZE;
    return {
      prompts: all.slice(offset, end),
      ...(end < all.length ? { nextCursor: cursorOf(end) } : {}),
    } as never;
  });
  server.setRequestHandler("prompts/get", async (request, ctx) => {
    await before(ctx);
    try {
      return (await prompts.get(request.params.name, request.params.arguments ?? {})) as never;
    } catch (error) {
      throw protocolErrorOf(error, `Getting prompt ${request.params.name}`);
    }
  });
  if (!prompts.watch) return;
  const watch = prompts.watch.bind(prompts);
  // only a 2025-era connection (initialized) has a channel to push on
  const initialized = server.oninitialized;
  server.oninitialized = () => {
    initialized?.();
    const stop = watch(() => {
      if (server.transport) void server.sendPromptListChanged().catch(() => {});
    });
    const closed = server.onclose;
    server.onclose = () => {
      stop();
      closed?.();
    };
  };
}

/**
 * Serves `completion/complete` for prompt arguments (`ref/prompt`) and resource-template
 * variables (`ref/resource`): the plugin's completer's values, none when it has no completer,
 * -32602 for a prompt or template nobody serves.
 */
export function serveCompletions(
  server: Server,
  sources: { prompts?: McpPromptsLike | undefined; resources?: McpResourcesLike | undefined },
  before: (ctx: ServerContext) => void | Promise<void>,
): void {
  server.setRequestHandler("completion/complete", async (request, ctx) => {
    await before(ctx);
    const { ref, argument, context } = request.params;
    const asked = {
      argument: argument.name,
      value: argument.value,
      ...(context?.arguments ? { context: context.arguments } : {}),
    };
    try {
      if (ref.type === "ref/prompt") {
        if (!sources.prompts?.available) throw new ProtocolError(-32602, `Prompt not found: ${ref.name}`);
        return { completion: { ...(await sources.prompts.complete(ref.name, asked)) } };
      }
      if (!sources.resources?.complete)
        throw new ProtocolError(-32602, `Resource template not found: ${ref.uri}`);
      return { completion: { ...(await sources.resources.complete(ref.uri, asked)) } };
    } catch (error) {
      throw protocolErrorOf(error, "Completing");
    }
  });
}
