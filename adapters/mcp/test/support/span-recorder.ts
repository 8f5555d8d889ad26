// An OpenTelemetry SDK installed for a test file, as an app would install one: every span ends in
// memory, every metric point is read on demand.
import { metrics, trace } from "@opentelemetry/api";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

export function installRecorder() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  trace.setGlobalTracerProvider(tracerProvider);
  const points = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: points, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    /** The ended spans named `name`. */
    named: (name: string): ReadableSpan[] => spans.getFinishedSpans().filter((s) => s.name === name),
    reset: () => spans.reset(),
    /** The data points of a histogram, read now. */
    async histogram(name: string) {
      await reader.forceFlush();
      const all = points.getMetrics().flatMap((m) => m.scopeMetrics.flatMap((s) => s.metrics));
      return all.filter((m) => m.descriptor.name === name);
    },
    async uninstall() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      trace.disable();
      metrics.disable();
    },
  };
}
