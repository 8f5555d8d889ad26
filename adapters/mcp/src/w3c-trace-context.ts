import type { Context, SpanContext } from "@opentelemetry/api";
import type { otelApi } from "./otel-api.js";

// version 00 exactly; a later version may carry more fields after the flags (W3C Trace Context §3.2.4)
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * The host's span from W3C `traceparent` / `tracestate` in a request's `params._meta`, for when
 * no propagator is installed that reads them (the API alone, or an SDK set up without the W3C
 * one). Undefined when there is none or it is malformed: the call then starts its own trace.
 */
export function remoteParentOf(
  api: NonNullable<ReturnType<typeof otelApi>>,
  meta: Record<string, unknown>,
  base: Context,
): Context | undefined {
  const header = meta.traceparent;
  if (typeof header !== "string") return undefined;
  const match = TRACEPARENT.exec(header.trim().toLowerCase());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match;
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  const state = meta.tracestate;
  const parent: SpanContext = {
    traceId: traceId!,
    spanId: spanId!,
    traceFlags: Number.parseInt(flags!, 16) & 1,
    isRemote: true,
    ...(typeof state === "string" && state ? { traceState: api.createTraceState(state) } : {}),
  };
  return api.isSpanContextValid(parent) ? api.trace.setSpanContext(base, parent) : undefined;
}
