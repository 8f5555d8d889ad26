import { type AnyAgentTool, isToolProtocolError } from "@clawtools/core";
import { type ClientChannel, isClientCapabilityError, runWithClient } from "@clawtools/core/client";
import { isAbortError, toolErrorResult } from "@clawtools/core/wrap";
import type { JSONRPCMessage, JSONRPCRequest } from "@modelcontextprotocol/server";
import { prepareCall } from "./prepare-call.js";
import { CallTrace, errorClassOf, type TraceOfCall } from "./call-trace.js";
import { channelOf } from "./client-channel.js";
import { isId, isObject } from "./jsonrpc-shape.js";
import { toCallToolResult } from "./result.js";
import type { McpToolsetLike } from "./server.js";
import type { ServeStdioOptions } from "./stdio.js";
import type { LineTransport } from "./stdio-transport.js";
import { checkStructured } from "./structured-check.js";
import { taskSupportOf } from "./task-wire.js";
import { followToolView, type ToolView } from "./tool-view.js";

type Id = string | number;

/**
 * `tools/call` as the SDK server answers it, for the plain case, run by stdio's front so a call
 * costs no SDK load and no schema passes over the result: a 2025-era client the front opened
 * with, no approvals to ask through the client, params of `name` and an object of `arguments`
 * only, a tool that exists. Anything else (progress tokens, unknown tools, odd params) is the
 * SDK's, with its own errors. A call cancelled with `notifications/cancelled` is aborted and not
 * answered, as the SDK does.
 */
export class FrontCalls {
  private readonly current: () => ToolView;
  private readonly running = new Map<Id, AbortController>();

  constructor(
    private readonly transport: LineTransport,
    toolset: McpToolsetLike,
    private readonly options: ServeStdioOptions,
  ) {
    this.current = followToolView(toolset);
    // the front runs the calls of a client a tool cannot ask (its questions fail -32021, as the
    // SDK path's do); no logging/setLevel reached it (that loads the SDK), so every message goes
    this.client = channelOf({
      capabilities: {},
      log: (level, data, logger) =>
        void this.transport.send({
          jsonrpc: "2.0",
          method: "notifications/message",
          params: { level, data, ...(logger !== undefined ? { logger } : {}) },
        } as JSONRPCMessage),
      ask: () => Promise.reject(new Error("the client was asked nothing it declared")),
    });
  }

  private readonly client: ClientChannel;

  /** The tool this request calls, when the front may run it; undefined leaves it to the SDK. */
  accepts(message: JSONRPCRequest): AnyAgentTool | undefined {
    const params = message.params;
    if (!isObject(params) || typeof params.name !== "string") return undefined;
    if (!Object.keys(params).every((key) => key === "name" || key === "arguments")) return undefined;
    if (params.arguments !== undefined && !isObject(params.arguments)) return undefined;
    if (this.running.has(message.id)) return undefined;
    const tool = this.current().byName.get(params.name);
    // a tool that only runs as a task is refused by the SDK server in its own words
    if (tool && this.options.tasks && taskSupportOf(tool) === "required") return undefined;
    return tool;
  }

  run(message: JSONRPCRequest, tool: AnyAgentTool): void {
    const controller = new AbortController();
    this.running.set(message.id, controller);
    // what the first call needs loads before the call's context is entered (AgentTool.prepare)
    const ready = prepareCall(tool);
    if (ready) void ready.then(() => this.start(message, tool, controller));
    else this.start(message, tool, controller);
  }

  private start(message: JSONRPCRequest, tool: AnyAgentTool, controller: AbortController): void {
    // the same span the SDK path's handler makes (this path never has _meta: no host parent)
    const trace = CallTrace.call({
      tool: (message.params as { name: string }).name,
      requestId: message.id,
      meta: undefined,
      transport: "pipe",
    });
    trace.note("policy", "allow");
    void trace
      .run(() => this.answer(message, tool, controller.signal, trace))
      .then((answer) => {
        if (answer.error) trace.threw(Object.assign(new Error(answer.error.message), answer.error));
        else trace.ended(answer.result);
        this.running.delete(message.id);
        // a cancelled call's answer is never read: the SDK sends none either
        if (controller.signal.aborted) return;
        void this.transport.send({ ...answer, jsonrpc: "2.0", id: message.id } as JSONRPCMessage);
      });
  }

  /** The handler `createMcpServer` gives the SDK, without approvals through the client or progress. */
  private async answer(message: JSONRPCRequest, tool: AnyAgentTool, signal: AbortSignal, trace: TraceOfCall) {
    const args = (message.params as { arguments?: Record<string, unknown> }).arguments ?? {};
    try {
      const result = await runWithClient(this.client, () =>
        tool.execute(String(message.id), args, signal, undefined),
      );
      const outputSchema = this.current().outputSchemas.get(tool.name);
      return {
        result: checkStructured(tool.name, toCallToolResult(result, this.options), outputSchema, this.log),
      };
    } catch (error) {
      // an internal failure of the call (not the tool's own error): a JSON-RPC error
      if (isClientCapabilityError(error))
        return {
          error: {
            code: error.code,
            message: error.message,
            data: { requiredCapabilities: { [error.capability]: {} } },
          },
        };
      if (isToolProtocolError(error)) return { error: { code: error.code, message: error.message } };
      if (isAbortError(error) || signal.aborted)
        return { result: toCallToolResult(toolErrorResult(tool.name, "Aborted"), this.options) };
      trace.note("error.class", errorClassOf(error));
      return { result: toCallToolResult(toolErrorResult(tool.name, error), this.options) };
    }
  }

  private readonly log = (line: string) => this.options.log?.(line);

  /** Aborts a call this front runs, for its `notifications/cancelled`; false when it runs none by that id. */
  cancel(message: JSONRPCMessage): boolean {
    if (!("method" in message) || message.method !== "notifications/cancelled" || "id" in message)
      return false;
    const requestId = isObject(message.params) ? message.params.requestId : undefined;
    const controller = isId(requestId) ? this.running.get(requestId) : undefined;
    if (!controller) return false;
    const reason = isObject(message.params) ? message.params.reason : undefined;
    controller.abort(typeof reason === "string" ? reason : undefined);
    return true;
  }

  /** Aborts every call still running (the server is stopping). */
  abortAll(): void {
    for (const controller of this.running.values()) controller.abort();
  }
}
