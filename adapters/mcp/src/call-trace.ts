import { isToolProtocolError } from "@clawtools/core";
import { type CallNotes, runWithCallNotes } from "@clawtools/core/wrap";
import type { Attributes, Context, Histogram, MeterProvider, Span, SpanKind } from "@opentelemetry/api";
import { otelApi } from "./otel-api.js";
import { MCP_PACKAGE_VERSION } from "./version.js";
import { remoteParentOf } from "./w3c-trace-context.js";

const SCOPE = "@clawtools/mcp";
/** The bucket boundaries the MCP semantic conventions give `mcp.server.operation.duration`. */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** Who made a tools/call and how: what its span says besides the tool. */
export interface CallTraceStart {
  tool: string;
  /** The JSON-RPC id (none for a call without one). */
  requestId: string | number | undefined;
  /** The request's `params._meta`: `traceparent` / `tracestate` make the span the host's child. */
  meta: unknown;
  sessionId?: string | undefined;
  /** `pipe` for stdio, `tcp` for Streamable HTTP (unknown: not recorded). */
  transport?: "pipe" | "tcp" | undefined;
}

/** The outcome of a call as its span records it: an MCP result, or what the server threw. */
type Outcome = { result: { isError?: unknown } } | { thrown: unknown };

type Api = NonNullable<ReturnType<typeof otelApi>>;

let histogram: { provider: MeterProvider; instrument: Histogram } | undefined;

/** The duration histogram of the meter provider installed now (none installed: a no-op one). */
function durationHistogram(api: Api): Histogram {
  const provider = api.metrics.getMeterProvider();
  if (histogram?.provider !== provider) {
    const instrument = provider
      .getMeter(SCOPE, MCP_PACKAGE_VERSION)
      .createHistogram("mcp.server.operation.duration", {
        unit: "s",
        description: "The duration of the MCP request as observed on the server",
        advice: { explicitBucketBoundaries: DURATION_BUCKETS },
      });
    histogram = { provider, instrument };
  }
  return histogram.instrument;
}

/** The host's span: the configured propagators first, then W3C Trace Context read directly. */
function parentContext(api: Api, meta: unknown): Context {
  const { context, propagation, trace } = api;
  if (!meta || typeof meta !== "object") return context.active();
  const carrier = meta as Record<string, unknown>;
  const extracted = propagation.extract(context.active(), carrier, {
    keys: (c) => Object.keys(c),
    get: (c, key) => (typeof c[key] === "string" ? (c[key] as string) : undefined),
  });
  if (trace.getSpanContext(extracted)?.isRemote) return extracted;
  return remoteParentOf(api, carrier, extracted) ?? extracted;
}

interface SpanPlan {
  api: Api;
  name: string;
  kind: SpanKind;
  /** On the span and on the duration metric (none: no metric). */
  shared: Attributes;
  /** On the span alone (high-cardinality ids). */
  own: Attributes;
  parent: Context;
  metric: boolean;
}

/**
 * One tools/call's span (`tools/call {tool}`, kind SERVER) and its duration, as the MCP semantic
 * conventions describe them, with what the per-call pipeline noted (`clawtools.*`). Until an app
 * installs an OpenTelemetry provider every call gets one that records nothing.
 */
export interface TraceOfCall {
  run<T>(fn: () => Promise<T>): Promise<T>;
  ended<T>(result: T): T;
  threw(error: unknown): void;
  note(key: string, value: string): void;
  taskRun(tool: string, taskId: string): TraceOfCall;
}

export class CallTrace implements TraceOfCall {
  readonly notes: CallNotes = new Map();
  private readonly started = performance.now();
  private readonly api: Api;
  private readonly attributes: Attributes;
  private readonly metric: boolean;
  private readonly span: Span;
  private readonly context: Context;

  static call(start: CallTraceStart): TraceOfCall {
    const api = otelApi();
    if (!api) return NO_TRACE;
    return new CallTrace({
      api,
      name: `tools/call ${start.tool}`,
      kind: api.SpanKind.SERVER,
      shared: {
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": start.tool,
        "gen_ai.operation.name": "execute_tool",
        ...(start.transport ? { "network.transport": start.transport } : {}),
        ...(start.transport === "tcp" ? { "network.protocol.name": "http" } : {}),
      },
      own: {
        ...(start.requestId !== undefined ? { "jsonrpc.request.id": String(start.requestId) } : {}),
        ...(start.sessionId ? { "mcp.session.id": start.sessionId } : {}),
      },
      parent: parentContext(api, start.meta),
      metric: true,
    });
  }

  private constructor(plan: SpanPlan) {
    this.api = plan.api;
    this.attributes = plan.shared;
    this.metric = plan.metric;
    this.span = plan.api.trace
      .getTracer(SCOPE, MCP_PACKAGE_VERSION)
      .startSpan(plan.name, { kind: plan.kind, attributes: { ...plan.shared, ...plan.own } }, plan.parent);
    this.context = plan.api.trace.setSpan(plan.parent, this.span);
  }

  /**
   * The span of a task's run (`execute_tool {tool}`, kind INTERNAL): the call's span ends when
   * the task is created, the tool runs on, as this span's child.
   */
  taskRun(tool: string, taskId: string): CallTrace {
    return new CallTrace({
      api: this.api,
      name: `execute_tool ${tool}`,
      kind: this.api.SpanKind.INTERNAL,
      shared: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": tool },
      own: { "clawtools.task.id": taskId },
      parent: this.context,
      metric: false,
    });
  }

  /** Runs the call inside the span: what the pipeline notes lands on it. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    if (!this.span.isRecording()) return fn();
    return this.api.context.with(this.context, () => runWithCallNotes(this.notes, fn));
  }

  /** Ends the span with the call's result (an MCP CallToolResult, CreateTaskResult or input_required). */
  ended<T>(result: T): T {
    this.finish({ result: result as { isError?: unknown } });
    return result;
  }

  /** Ends the span with what the call threw (a JSON-RPC error to the client); rethrow it after. */
  threw(error: unknown): void {
    this.finish({ thrown: error });
  }

  /** Notes something the server decided about the call (the tool unknown or denied, the task's id). */
  note(key: string, value: string): void {
    this.notes.set(key, value);
  }

  private finish(outcome: Outcome): void {
    const seconds = (performance.now() - this.started) / 1000;
    const errorType = errorTypeOf(outcome);
    if (this.metric)
      durationHistogram(this.api).record(
        seconds,
        errorType ? { ...this.attributes, "error.type": errorType } : this.attributes,
      );
    if (!this.span.isRecording()) {
      this.span.end();
      return;
    }
    for (const [key, value] of this.notes) this.span.setAttribute(`clawtools.${key}`, value);
    if (errorType) {
      this.span.setAttribute("error.type", errorType);
      const { ERROR } = this.api.SpanStatusCode;
      if ("thrown" in outcome) {
        const code = codeOf(outcome.thrown);
        if (code !== undefined) this.span.setAttribute("rpc.response.status_code", String(code));
        const message = outcome.thrown instanceof Error ? outcome.thrown.message : String(outcome.thrown);
        this.span.setStatus({ code: ERROR, message });
      } else this.span.setStatus({ code: ERROR });
    }
    this.span.end();
  }
}

/** The trace of a call while no OpenTelemetry provider is installed: it records nothing. */
const NO_TRACE: TraceOfCall = {
  run: (fn) => fn(),
  ended: (result) => result,
  threw: () => {},
  note: () => {},
  taskRun: () => NO_TRACE,
};

/** A JSON-RPC error's code (an SDK ProtocolError, core's ToolProtocolError, or the server's own). */
function codeOf(error: unknown): number | undefined {
  if (isToolProtocolError(error)) return error.code;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "number" ? code : undefined;
}

/** `tool_error` for an isError result; a JSON-RPC error's code, else the thrown error's class. */
function errorTypeOf(outcome: Outcome): string | undefined {
  if ("result" in outcome) return outcome.result?.isError === true ? "tool_error" : undefined;
  const code = codeOf(outcome.thrown);
  if (code !== undefined) return String(code);
  return outcome.thrown instanceof Error ? errorClassOf(outcome.thrown) : "_OTHER";
}

/** The class of what a call threw (`ToolInputError`, `TypeError`…), for `clawtools.error.class`. */
export function errorClassOf(error: unknown): string {
  return error instanceof Error ? error.name || error.constructor.name : typeof error;
}

/** Why a called tool is not served: left out by a policy step (a deny), or otherwise (unknown). */
export function noteUnknownTool(
  trace: TraceOfCall,
  diagnostics: ReadonlyArray<{ toolId: string; reason: string }> | undefined,
  name: string,
): void {
  const left = diagnostics?.find((d) => d.toolId === name);
  if (!left) return;
  trace.note("policy", /^(denied|not allowed) by /.test(left.reason) ? "deny" : "unavailable");
  trace.note("policy.reason", left.reason);
}
