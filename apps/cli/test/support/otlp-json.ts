// Reads an OTLP/HTTP JSON metrics export (ExportMetricsServiceRequest) as the OTLP JSON encoding
// documents it — lowerCamelCase keys, enums as integers, 64-bit integers as decimal strings or
// numbers, attributes as {key, value: AnyValue} — and fails the test on anything that is not.
import { expect } from "vitest";

type Json = Record<string, unknown>;
export type Attributes = Record<string, string | number | boolean>;

export interface HistogramPoint {
  attributes: Attributes;
  count: bigint;
  sum: number;
  min: number;
  max: number;
  bucketCounts: bigint[];
  explicitBounds: number[];
  startTimeUnixNano: bigint;
  timeUnixNano: bigint;
}

export interface OtlpMetric {
  scope: string;
  name: string;
  unit: string | undefined;
  /** Set for a histogram: its points and `aggregationTemporality` (1 delta, 2 cumulative). */
  histogram?: { aggregationTemporality: number; dataPoints: HistogramPoint[] };
}

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function list(v: unknown, where: string): unknown[] {
  expect(Array.isArray(v), `${where} is an array`).toBe(true);
  return v as unknown[];
}

function object(v: unknown, where: string): Json {
  expect(isObject(v), `${where} is an object`).toBe(true);
  return v as Json;
}

/** fixed64 / uint64: a decimal string or a non-negative whole number. */
function u64(v: unknown, where: string): bigint {
  const ok =
    (typeof v === "string" && /^\d+$/.test(v)) ||
    (typeof v === "number" && Number.isSafeInteger(v) && v >= 0);
  expect(ok, `${where} is a 64-bit unsigned integer (got ${JSON.stringify(v)})`).toBe(true);
  return BigInt(v as string | number);
}

function double(v: unknown, where: string): number {
  expect(typeof v === "number" && Number.isFinite(v), `${where} is a number (got ${JSON.stringify(v)})`).toBe(
    true,
  );
  return v as number;
}

/** KeyValue list → plain record (AnyValue: string, bool, int as string or number, double). */
export function attributesOf(v: unknown, where: string): Attributes {
  const out: Attributes = {};
  for (const [i, kv] of list(v, where).entries()) {
    const { key, value } = object(kv, `${where}[${i}]`);
    expect(typeof key, `${where}[${i}].key`).toBe("string");
    const any = object(value, `${where}[${i}].value`);
    const kinds = Object.keys(any);
    expect(kinds, `${where}[${i}].value has one AnyValue field`).toHaveLength(1);
    const kind = kinds[0]!;
    expect(["stringValue", "boolValue", "intValue", "doubleValue"], `${where}[${i}].value.${kind}`).toContain(
      kind,
    );
    out[key as string] = kind === "intValue" ? Number(any[kind]) : (any[kind] as string | number | boolean);
  }
  return out;
}

function histogramPoint(v: unknown, where: string): HistogramPoint {
  const p = object(v, where);
  const bucketCounts = list(p.bucketCounts, `${where}.bucketCounts`).map((c, i) =>
    u64(c, `${where}.bucketCounts[${i}]`),
  );
  const explicitBounds = list(p.explicitBounds, `${where}.explicitBounds`).map((b, i) =>
    double(b, `${where}.explicitBounds[${i}]`),
  );
  return {
    attributes: attributesOf(p.attributes ?? [], `${where}.attributes`),
    count: u64(p.count, `${where}.count`),
    sum: double(p.sum, `${where}.sum`),
    min: double(p.min, `${where}.min`),
    max: double(p.max, `${where}.max`),
    bucketCounts,
    explicitBounds,
    startTimeUnixNano: u64(p.startTimeUnixNano, `${where}.startTimeUnixNano`),
    timeUnixNano: u64(p.timeUnixNano, `${where}.timeUnixNano`),
  };
}

/** The resource attributes and every metric of one export request, checked field by field. */
export function otlpMetrics(body: unknown): { resource: Attributes; metrics: OtlpMetric[] } {
  const request = object(body, "the request");
  expect(Object.keys(request), "the request holds resourceMetrics alone").toEqual(["resourceMetrics"]);
  let resource: Attributes = {};
  const metrics: OtlpMetric[] = [];
  for (const [r, rm] of list(request.resourceMetrics, "resourceMetrics").entries()) {
    const at = `resourceMetrics[${r}]`;
    const entry = object(rm, at);
    resource = attributesOf(object(entry.resource, `${at}.resource`).attributes, `${at}.resource.attributes`);
    for (const [s, sm] of list(entry.scopeMetrics, `${at}.scopeMetrics`).entries()) {
      const scoped = object(sm, `${at}.scopeMetrics[${s}]`);
      const scope = object(scoped.scope, `${at}.scopeMetrics[${s}].scope`);
      for (const [m, metric] of list(scoped.metrics, `${at}.scopeMetrics[${s}].metrics`).entries()) {
        const where = `${at}.scopeMetrics[${s}].metrics[${m}]`;
        const { name, unit, histogram } = object(metric, where);
        expect(typeof name, `${where}.name`).toBe("string");
        const read: OtlpMetric = {
          scope: String(scope.name),
          name: name as string,
          unit: unit as string | undefined,
        };
        if (histogram !== undefined) {
          const h = object(histogram, `${where}.histogram`);
          expect([1, 2], `${where}.histogram.aggregationTemporality is an enum integer`).toContain(
            h.aggregationTemporality,
          );
          read.histogram = {
            aggregationTemporality: h.aggregationTemporality as number,
            dataPoints: list(h.dataPoints, `${where}.histogram.dataPoints`).map((p, i) =>
              histogramPoint(p, `${where}.histogram.dataPoints[${i}]`),
            ),
          };
        }
        metrics.push(read);
      }
    }
  }
  return { resource, metrics };
}
