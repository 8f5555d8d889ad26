import { OTLPExporterBase } from "@opentelemetry/otlp-exporter-base";
import {
  convertLegacyHttpOptions,
  createOtlpHttpExportDelegate,
} from "@opentelemetry/otlp-exporter-base/node-http";
import { JsonMetricsSerializer, MetricsExporterMetricsHelper } from "@opentelemetry/otlp-transformer";
import type { Resource } from "@opentelemetry/resources";
import {
  AggregationTemporality,
  InstrumentType,
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
  type ResourceMetrics,
} from "@opentelemetry/sdk-metrics";
import { UsageError } from "./usage-error.js";

// Kept apart from otel.ts: the metric half of `serve --otel`, loaded with it and only with it.

type Env = NodeJS.ProcessEnv;

/** Which temporality each kind of instrument is exported with, per the OTLP exporter spec's presets. */
const PREFERENCES: Record<string, (type: InstrumentType) => AggregationTemporality> = {
  cumulative: () => AggregationTemporality.CUMULATIVE,
  delta: (type) =>
    type === InstrumentType.UP_DOWN_COUNTER || type === InstrumentType.OBSERVABLE_UP_DOWN_COUNTER
      ? AggregationTemporality.CUMULATIVE
      : AggregationTemporality.DELTA,
  lowmemory: (type) =>
    type === InstrumentType.COUNTER || type === InstrumentType.HISTOGRAM
      ? AggregationTemporality.DELTA
      : AggregationTemporality.CUMULATIVE,
};

/** A positive whole number of milliseconds from `name`, else `fallback`; anything else stops the start. */
function millis(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0)
    throw new UsageError(
      `${name}=${raw} is not a number of milliseconds: set a positive whole number or unset it`,
    );
  return value;
}

function temporality(env: Env): (type: InstrumentType) => AggregationTemporality {
  const name = "OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE";
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return PREFERENCES.cumulative!;
  const chosen = PREFERENCES[raw];
  if (!chosen)
    throw new UsageError(
      `${name}=${env[name]} is not a temporality preference: set it to ${Object.keys(PREFERENCES).join(", ")} or unset it`,
    );
  return chosen;
}

/**
 * OTLP/HTTP with the JSON encoding for metrics, over the same export machinery (endpoint, headers,
 * timeout and retries from the standard variables) as the span exporter `serve --otel` uses.
 */
class OtlpJsonMetricExporter extends OTLPExporterBase<ResourceMetrics> implements PushMetricExporter {
  constructor(private readonly temporalityOf: (type: InstrumentType) => AggregationTemporality) {
    super(
      createOtlpHttpExportDelegate(
        convertLegacyHttpOptions({}, "METRICS", "v1/metrics", { "Content-Type": "application/json" }),
        JsonMetricsSerializer,
        "otlp_http_json_metric_exporter",
        MetricsExporterMetricsHelper,
        undefined,
      ),
    );
  }

  selectAggregationTemporality(type: InstrumentType): AggregationTemporality {
    return this.temporalityOf(type);
  }
}

/**
 * A meter provider that exports every `OTEL_METRIC_EXPORT_INTERVAL` (default 60 s) and once more
 * at its shutdown, so a short `serve` still reports its calls. Checked before anything starts.
 */
export function otlpMeterProvider(resource: Resource, env: Env = process.env): MeterProvider {
  const reader = new PeriodicExportingMetricReader({
    exporter: new OtlpJsonMetricExporter(temporality(env)),
    exportIntervalMillis: millis(env, "OTEL_METRIC_EXPORT_INTERVAL", 60_000),
    exportTimeoutMillis: millis(env, "OTEL_METRIC_EXPORT_TIMEOUT", 30_000),
  });
  return new MeterProvider({ resource, readers: [reader] });
}
