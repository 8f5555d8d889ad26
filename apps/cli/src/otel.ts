import { UsageError } from "./usage-error.js";
import { CLI_VERSION } from "./version.js";

/** The protocols the OTLP/HTTP exporter speaks: JSON only (no protobuf, no gRPC). */
const SUPPORTED_PROTOCOL = "http/json";

/** Where a signal goes: its own variable, else the shared base, else the OTLP/HTTP default on this machine. */
export function signalEndpoint(signal: "TRACES" | "METRICS", env: NodeJS.ProcessEnv = process.env): string {
  const own = env[`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`]?.trim();
  if (own) return own;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || "http://localhost:4318";
  return `${base.replace(/\/+$/, "")}/v1/${signal.toLowerCase()}`;
}

/** A protocol the exporters cannot speak is refused before anything starts, not ignored. */
function checkProtocol(env: NodeJS.ProcessEnv): void {
  const names = [
    "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
    "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL",
    "OTEL_EXPORTER_OTLP_PROTOCOL",
  ];
  for (const name of names) {
    const value = env[name]?.trim();
    if (value && value !== SUPPORTED_PROTOCOL)
      throw new UsageError(
        `--otel exports OTLP over HTTP as JSON; ${name}=${value} is not supported: set it to ${SUPPORTED_PROTOCOL} or unset it`,
      );
  }
}

/** The endpoint as it may be printed: no user or password of a URL. */
function shown(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    url.username = "";
    url.password = "";
    return url.toString();
  } catch {
    return "(an endpoint that is not a URL)";
  }
}

/**
 * `serve --otel`: installs the OpenTelemetry SDK with OTLP/HTTP (JSON) exporters, so every
 * tools/call span and the `mcp.server.operation.duration` histogram reach a collector. Configured
 * by the standard variables (`OTEL_EXPORTER_OTLP_ENDPOINT` / `_TRACES_ENDPOINT` /
 * `_METRICS_ENDPOINT`, `_HEADERS`, `_TIMEOUT`, `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`,
 * `OTEL_TRACES_SAMPLER`, `OTEL_BSP_*`, `OTEL_METRIC_EXPORT_INTERVAL` / `_TIMEOUT`,
 * `OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE`). Loaded only with the flag.
 * Returns the shutdown, which sends what is still buffered (spans, and the metrics once more).
 */
export async function installOtel(log: (line: string) => void): Promise<() => Promise<void>> {
  checkProtocol(process.env);
  const [
    { NodeTracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    resources,
    { otlpMeterProvider },
    api,
  ] = await Promise.all([
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("./otel-metrics.js"),
    import("@opentelemetry/api"),
  ]);
  // the service is clawtools unless OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES say otherwise
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ "service.name": "clawtools", "service.version": CLI_VERSION }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  // made first: a bad metric setting stops the start before anything is registered
  const meters = otlpMeterProvider(resource);
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // the global tracer provider, W3C trace-context propagator and async context the MCP server uses
  provider.register();
  api.metrics.setGlobalMeterProvider(meters);
  log(`traces: OTLP/HTTP (JSON) to ${shown(signalEndpoint("TRACES"))}`);
  log(`metrics: OTLP/HTTP (JSON) to ${shown(signalEndpoint("METRICS"))}`);
  return async () => {
    await Promise.all([provider.shutdown(), meters.shutdown()]);
  };
}
