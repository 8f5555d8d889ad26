import type { AgentToolResult, AnyAgentTool } from "@clawtools/core";
import type { ToolMeta } from "@clawtools/core/catalog";
import { isToolProtocolError } from "@clawtools/core";
import { runWithApprovalHandler } from "@clawtools/core/approvals";
import { isClientCapabilityError, runWithClient } from "@clawtools/core/client";
import { isAbortError, toolErrorResult } from "@clawtools/core/wrap";
import {
  type CallToolRequest,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type InputRequiredResult,
  isInputRequiredResult,
  ProtocolErrorCode as ErrorCode,
  ProtocolError,
  Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { prepareCall } from "./prepare-call.js";
import { CallTrace, errorClassOf, noteUnknownTool, type TraceOfCall } from "./call-trace.js";
import { pushChannel } from "./client-push.js";
import { answersOf, RequestStateError, roundStateOptions, runInRounds } from "./client-rounds.js";
import { clientApprovalHandler, supportsFormElicitation } from "./elicit-approval.js";
import { serveCompletions, servePrompts } from "./prompts.js";
import type { McpPromptsLike } from "./prompts-capability.js";
import { serveResources } from "./resources.js";
import type { McpResourcesLike } from "./resources-capability.js";
import { type ResultLimits, toCallToolResult } from "./result.js";
import { followRoots, type RootsListener, type SendRootsList } from "./roots.js";
import { checkStructured } from "./structured-check.js";
import { serverCapabilitiesOf, serverInfoOf } from "./stdio-opening.js";
import { callAsTask, taskModeOf } from "./task-call.js";
import type { TaskHost } from "./task-host.js";
import { RELATED_TASK_META, task2025, taskSupportOf } from "./task-wire.js";
import { serveTasks } from "./tasks.js";
import { followToolView } from "./tool-view.js";

export { toMcpTool } from "./tool-listing.js";

/** What the server needs: tools (normally from createToolset) and optional catalog metadata. */
export interface McpToolsetLike {
  tools: AnyAgentTool[];
  meta?(name: string): ToolMeta | undefined;
  /** Called when a `serveStdio` / `serveHttp` server stops (createToolset's result has it). */
  dispose?(): Promise<void>;
  /**
   * Subscribes to changes of `tools` (a getter): the server then declares `tools.listChanged`
   * and sends `notifications/tools/list_changed` on each. Returns the unsubscribe.
   */
  onToolsChanged?(listener: () => void): () => void;
  /**
   * Resources the client may list and read (createToolset's `resources`): the server declares
   * the `resources` capability when there are any, and serves them to this client alone.
   */
  resources?: McpResourcesLike;
  /** Prompts the client may list and get (createToolset's `prompts`), with completion of their arguments. */
  prompts?: McpPromptsLike;
  /** Why tools were left out (createToolset's): a call of one is traced as a policy deny. */
  diagnostics?: ReadonlyArray<{ toolId: string; reason: string }>;
}

export interface CreateMcpServerOptions extends ResultLimits {
  /** `serverInfo.name` (default "clawtools"). */
  name?: string;
  /** `serverInfo.version` (default: this package's version). */
  version?: string;
  /** Free-text instructions sent to the client at initialisation. */
  instructions?: string;
  /** Where the server reports its own problems (a result that breaks its outputSchema). */
  log?: (message: string) => void;
  /**
   * Ask the client to approve commands through MCP elicitation when it supports it (default
   * true). Off, or with a client without elicitation, such commands get the tool's own refusal.
   */
  elicitApprovals?: boolean;
  /**
   * Follows the client's roots (2025-era clients that declare `roots`; 2026-07-28 deprecates
   * them): called with the roots once the client has initialised and after every
   * `notifications/roots/list_changed`. Listings and calls wait until it has returned, so an app
   * can swap `toolset.tools` (a getter) for tools rooted in the new directory.
   */
  onRoots?: RootsListener;
  /**
   * Read the roots on the next listing or call instead of the moment they change (Streamable
   * HTTP, where a request with nothing to answer may be dropped): see `followRoots`.
   */
  rootsOnRequest?: boolean;
  /**
   * Runs the calls of tools with `taskSupport` as tasks for clients that ask (2025-11-25
   * `params.task`; 2026-07-28 the tasks extension), kept in the host's store: one host per process,
   * shared by every client's server.
   */
  tasks?: TaskHost;
  /**
   * Who this server's clients act as (`agent:ci-runner`, say): `tasks/list` shows the tasks this
   * principal started, whichever server or process on the task store started them. Without it, a
   * client lists its own session's tasks (a 2025-era HTTP session: per process).
   */
  principal?: string;
  /** The transport this server answers on, for its trace spans (`network.transport`). */
  transport?: "pipe" | "tcp";
}

/** The error a request other than initialize or ping gets before the client has initialised. */
export const NOT_INITIALIZED_MESSAGE =
  "Server not initialized: send an initialize request first (MCP lifecycle)";

/** An error the SDK sends as a JSON-RPC error with this code and exactly this message. */
function rpcError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}

/**
 * An MCP server (the SDK's low-level Server, which takes JSON Schema as is) exposing a toolset:
 * `tools/list`, `tools/call` with text and image content and `details` as `structuredContent`,
 * `isError` for a tool's own failure, a JSON-RPC error (-32602) for an unknown tool, progress
 * notifications from `onUpdate` when the client sent a progress token, and cancellation that
 * aborts the tool. Requests before `initialize` are refused (-32600). Results are capped (see
 * `ResultLimits`). Connect it to any transport, or use `serveStdio` / `serveHttp`.
 */
export function createMcpServer(toolset: McpToolsetLike, options: CreateMcpServerOptions = {}): Server {
  // the same identity and capabilities stdio's front answers with before it loads the SDK
  const server = new Server(serverInfoOf(options), {
    capabilities: serverCapabilitiesOf(toolset, options.tasks !== undefined),
    // a tool's questions on 2026-07-28 round-trip through the client: their state is signed and checked
    requestState: roundStateOptions,
    ...(options.instructions ? { instructions: options.instructions } : {}),
  });
  if (toolset.onToolsChanged) announceToolChanges(server, toolset.onToolsChanged.bind(toolset));
  // the toolset's tools may change (roots): the listing is rebuilt when the array does
  const current = followToolView(toolset);
  const log = options.log ?? (() => {});
  const roots = options.onRoots
    ? followRoots(server, options.onRoots, log, { onRequest: options.rootsOnRequest === true })
    : undefined;
  const limits: ResultLimits = {
    ...(options.maxResultChars !== undefined ? { maxResultChars: options.maxResultChars } : {}),
    ...(options.maxResultBytes !== undefined ? { maxResultBytes: options.maxResultBytes } : {}),
  };
  // a 2025-era client initialises first (the SDK records its version); a 2026-07-28 request
  // carries the client's identity in its own _meta envelope instead
  const requireInitialized = (ctx: ServerContext) => {
    if (!ctx.mcpReq.envelope && !server.getClientVersion())
      throw rpcError(ErrorCode.InvalidRequest, NOT_INITIALIZED_MESSAGE);
  };
  const capabilities = (ctx: ServerContext): ClientCapabilities | undefined =>
    ctx.mcpReq.envelope
      ? ((ctx.mcpReq.envelope as Record<string, unknown>)[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities)
      : server.getClientCapabilities();

  // roots are read on a 2025-era request's own stream; a 2026-07-28 request has no push channel
  const rootsSender = (ctx: ServerContext): SendRootsList | undefined =>
    ctx.mcpReq.envelope ? undefined : (request, opts) => ctx.mcpReq.send(request, opts);

  const settled = async (ctx: ServerContext) => {
    requireInitialized(ctx);
    await roots?.settled(rootsSender(ctx));
  };
  if (toolset.resources?.available) serveResources(server, toolset.resources, settled);
  // a prompt asks its client as a tool call does: pushed on 2025-era connections, in rounds on 2026-07-28
  const withClient = <T>(ctx: ServerContext, subject: string, args: unknown, run: () => Promise<T>) =>
    ctx.mcpReq.envelope
      ? runInRounds(ctx, { subject, args, capabilities: capabilities(ctx), approvals: false }, run)
      : runWithClient(pushChannel(ctx, capabilities(ctx)), run);
  if (toolset.prompts?.available) servePrompts(server, toolset.prompts, settled, withClient);
  if (serverCapabilitiesOf(toolset).completions) serveCompletions(server, toolset, settled);

  const tasks = options.tasks;
  // which client's tasks tasks/list shows: the principal's (stable across processes), else its
  // session's (a 2026-07-28 request has none)
  const principal = options.principal;
  const scopeOf = (ctx: ServerContext) => (principal !== undefined ? principal : (ctx.sessionId ?? ""));
  if (tasks)
    serveTasks(server, tasks, {
      before: async (ctx) => {
        requireInitialized(ctx);
      },
      capabilities,
      scope: scopeOf,
    });

  server.setRequestHandler("tools/list", async (_request, ctx) => {
    requireInitialized(ctx);
    await roots?.settled(rootsSender(ctx));
    return { tools: current().listed };
  });

  // every call is traced (a no-op until an app installs an OpenTelemetry provider)
  server.setRequestHandler("tools/call", async (request, ctx) => {
    // what the first call needs loads before the call's context is entered (AgentTool.prepare)
    await prepareCall(current().byName.get(request.params.name));
    const trace = CallTrace.call({
      tool: request.params.name,
      requestId: ctx.mcpReq.id,
      meta: request.params._meta,
      sessionId: ctx.sessionId,
      transport: options.transport,
    });
    try {
      return trace.ended(await trace.run(() => callTool(request, ctx, trace)));
    } catch (error) {
      trace.threw(error);
      throw error;
    }
  });

  const callTool = async (request: CallToolRequest, ctx: ServerContext, trace: TraceOfCall) => {
    requireInitialized(ctx);
    await roots?.settled(rootsSender(ctx));
    const { byName, outputSchemas } = current();
    const tool = byName.get(request.params.name);
    if (!tool) {
      noteUnknownTool(trace, toolset.diagnostics, request.params.name);
      throw rpcError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    }
    trace.note("policy", "allow");
    const progressToken = request.params._meta?.progressToken;
    let progress = 0;
    const onUpdate =
      progressToken === undefined
        ? undefined
        : (partial: { content?: AgentToolResult<unknown>["content"] }) => {
            const text = partial.content?.map((c) => (c.type === "text" ? c.text : "")).join("") ?? "";
            progress += 1;
            ctx.mcpReq
              .notify({
                method: "notifications/progress",
                params: { progressToken, progress, message: text.slice(-1000) },
              })
              .catch(() => {});
          };
    try {
      const args = request.params.arguments ?? {};
      const run = (signal = ctx.mcpReq.signal) => tool.execute(String(ctx.mcpReq.id), args, signal, onUpdate);
      // the call's client (questions, log, approvals when it can show a form): on a 2025-era
      // connection questions are pushed as server-to-client requests; on 2026-07-28 (no push
      // channel) the call answers input_required with them and is retried with the answers
      const declared = capabilities(ctx);
      const ask = options.elicitApprovals !== false && supportsFormElicitation(declared);
      const rounds = { subject: `tools/call ${tool.name}`, args, capabilities: declared, approvals: ask };
      const outputSchema = () => outputSchemas.get(tool.name);
      const mode = tasks
        ? taskModeOf(
            ctx,
            taskSupportOf(tool),
            (request.params as { task?: unknown }).task,
            declared,
            tool.name,
          )
        : undefined;
      if (tasks && mode) {
        // a tool that asks before its long work: on 2026-07-28 its questions are the call's own
        // rounds, and the task starts on the retry that brings their answers
        let answered: Awaited<ReturnType<typeof answersOf>> | undefined;
        let early: AgentToolResult<unknown> | undefined;
        if (mode.era === "2026" && tool.asksBeforeTask === true) {
          if ((await ctx.mcpReq.requestState()) === undefined) {
            const first = await runInRounds(ctx, rounds, run);
            if (isInputRequiredResult(first)) return first;
            early = first;
          } else answered = await answersOf(ctx, rounds.subject, args);
        }
        return (await callAsTask({
          host: tasks,
          mode,
          tool: tool.name,
          scope: scopeOf(ctx),
          ask,
          capabilities: declared,
          ...(answered ? { answered } : {}),
          trace,
          run: (signal) =>
            early ? Promise.resolve(early) : tool.execute(`${String(ctx.mcpReq.id)}-task`, args, signal),
          toResult: (r) => checkStructured(tool.name, toCallToolResult(r, limits), outputSchema(), log),
          ...(ctx.mcpReq.envelope
            ? {}
            : {
                // on the client's own stream, not the call's: that one closed with the answer
                notify: (task) =>
                  void server
                    .notification({
                      method: "notifications/tasks/status",
                      params: { ...task2025(task), _meta: { [RELATED_TASK_META]: { taskId: task.taskId } } },
                    } as never)
                    .catch(() => {}),
              }),
        })) as never;
      }
      let result: AgentToolResult<unknown> | InputRequiredResult;
      if (ctx.mcpReq.envelope) result = await runInRounds(ctx, rounds, run);
      else {
        const client = pushChannel(ctx, declared);
        result = await runWithClient(client, () =>
          ask ? runWithApprovalHandler(clientApprovalHandler(client), () => run()) : run(),
        );
      }
      if (isInputRequiredResult(result)) return result;
      return checkStructured(tool.name, toCallToolResult(result, limits), outputSchema(), log);
    } catch (error) {
      if (error instanceof RequestStateError || error instanceof ProtocolError) throw error;
      // the tool asked its client for something the client did not declare
      if (isClientCapabilityError(error))
        throw new ProtocolError(error.code, error.message, {
          requiredCapabilities: { [error.capability]: {} },
        });
      // an internal failure of the call (not the tool's own error): a JSON-RPC error
      if (isToolProtocolError(error)) throw new ProtocolError(error.code, error.message);
      // an aborted call's answer is never read (the client cancelled); anything else is a tool error
      if (isAbortError(error) || ctx.mcpReq.signal.aborted)
        return toCallToolResult(toolErrorResult(tool.name, "Aborted"), limits);
      trace.note("error.class", errorClassOf(error));
      return toCallToolResult(toolErrorResult(tool.name, error), limits);
    }
  };
  return server;
}

/**
 * Tells a 2025-era client (initialized: a connection to push on) when the tools change; stops
 * listening when the connection closes. A stateless 2026-07-28 request's instance never listens
 * (it is never closed when it served a subscriptions/listen stream): those streams hear changes
 * through serveHttp's event bus.
 */
function announceToolChanges(server: Server, subscribe: (listener: () => void) => () => void): void {
  const initialized = server.oninitialized;
  server.oninitialized = () => {
    initialized?.();
    const unsubscribe = subscribe(() => {
      if (server.transport) void server.sendToolListChanged().catch(() => {});
    });
    const closed = server.onclose;
    server.onclose = () => {
      unsubscribe();
      closed?.();
    };
  };
}
