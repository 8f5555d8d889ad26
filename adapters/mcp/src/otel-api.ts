import { createRequire } from "node:module";
import type * as OtelApi from "@opentelemetry/api";

/** Where every copy of the OpenTelemetry API 1.x keeps what was registered with it (`api/internal/global-utils`). */
const REGISTERED = Symbol.for("opentelemetry.js.api.1");

let api: typeof OtelApi | undefined;

/**
 * The OpenTelemetry API, once anything has registered with it (an SDK's tracer or meter provider,
 * a propagator); undefined before, when there is nothing to record. Loaded on first need, and from
 * beside this file: a process that never traces never loads it, and a bundle that inlines this
 * package (the CLI) uses the same copy as the SDK it installs, whose registration it must accept.
 */
export function otelApi(): typeof OtelApi | undefined {
  if ((globalThis as Record<symbol, unknown>)[REGISTERED] === undefined) return undefined;
  api ??= createRequire(import.meta.url)("@opentelemetry/api") as typeof OtelApi;
  return api;
}
