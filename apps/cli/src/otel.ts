import { UsageError } from "./usage-error.js";
import { CLI_VERSION } from "./version.js";

/** The protocols the OTLP/HTTP exporter speaks: JSON only (no protobuf, no gRPC). */
const SUPPORTED_PROTOCOL = "http/json";

/** Where spans go: the standard variables, else the OTLP/HTTP default on this machine. */
export function tracesEndpoint(env: NodeJS.ProcessEnv = process.env): string {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || "http://localhost:4318";
  return `${base.replace(/\/+$/, "")}/v1/traces`;
}

/** A protocol the exporter cannot speak is refused before anything starts, not ignored. */
function checkProtocol(env: NodeJS.ProcessEnv): void {
  for (const name of ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"]) {
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
 * `serve --otel`: installs the OpenTelemetry SDK with an OTLP/HTTP (JSON) span exporter, so every
 * tools/call span reaches a collector. Configured by the standard variables
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` / `_TRACES_ENDPOINT`, `_HEADERS`, `_TIMEOUT`, `OTEL_SERVICE_NAME`,
 * `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_TRACES_SAMPLER`, `OTEL_BSP_*`). Loaded only with the flag.
 * Returns the shutdown, which sends what is still buffered.
 */
export async function installOtel(log: (line: string) => void): Promise<() => Promise<void>> {
  checkProtocol(process.env);
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, resources] = await Promise.all([
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
  ]);
  // the service is clawtools unless OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES say otherwise
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ "service.name": "clawtools", "service.version": CLI_VERSION }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // the global tracer provider, W3C trace-context propagator and async context the MCP server uses
  provider.register();
  log(`traces: OTLP/HTTP (JSON) to ${shown(tracesEndpoint())}`);
  return () => provider.shutdown();
}
