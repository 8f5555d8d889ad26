// `clawtools serve --otel` as an operator runs it: the built CLI, an MCP client on stdio, and a
// collector on loopback that receives the OTLP/HTTP (JSON) export and decodes its spans.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, bin, ensureBuilt, POLL } from "./support/cli.js";
import { otlpMetrics } from "./support/otlp-json.js";
import { connectCli } from "./support/serve.js";

type AnyValue = { stringValue?: string; intValue?: string | number };
/** The bucket boundaries the MCP semantic conventions give `mcp.server.operation.duration`. */
const CONVENTION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: AnyValue }>;
  status?: { code?: number };
};
type Export = {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: AnyValue }> };
    scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }>;
  }>;
};
type Received = { path: string; type: string; body: unknown };

const HOST_TRACE = "0af7651916cd43dd8448eb211c80319c";
const HOST_SPAN = "b7ad6b7169203331";
const attrs = (list: Array<{ key: string; value: AnyValue }>) =>
  Object.fromEntries(list.map(({ key, value }) => [key, value.stringValue ?? value.intValue]));

describe("clawtools serve --otel", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-otel-"));
  const received: Received[] = [];
  const exports = () => received.filter((r) => r.path === "/v1/traces") as Array<Received & { body: Export }>;
  let collector: Server;
  let endpoint: string;

  beforeAll(async () => {
    ensureBuilt();
    writeFileSync(path.join(dir, "notes.txt"), "first line\n");
    collector = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        received.push({
          path: req.url ?? "",
          type: req.headers["content-type"] ?? "",
          body: JSON.parse(body),
        });
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  }, BUILD_TIMEOUT_MS);
  afterAll(() => {
    collector?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("exports a span per tool call, the host's trace context honoured, to OTEL_EXPORTER_OTLP_ENDPOINT", async () => {
    const { client, stderr } = await connectCli(["serve", "--otel", "--workspace", dir], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: "100" },
    });
    await client.callTool({ name: "read", arguments: { path: "notes.txt" } });
    const missing = await client.callTool({ name: "read", arguments: { path: "absent.txt" } });
    expect(missing.isError).toBe(true);
    await client.callTool({
      name: "read",
      arguments: { path: "notes.txt" },
      _meta: { traceparent: `00-${HOST_TRACE}-${HOST_SPAN}-01` },
    });
    // serve's stderr may be read after its answers on stdout (two pipes)
    await expect.poll(stderr, POLL).toContain(`traces: OTLP/HTTP (JSON) to ${endpoint}/v1/traces`);
    await client.close();

    const spans = () =>
      exports().flatMap((e) => e.body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
    await expect.poll(spans, { timeout: 15_000 }).toHaveLength(3);
    const first = exports()[0]!;
    expect(first.type).toContain("application/json");
    const resource = attrs(first.body.resourceSpans[0]!.resource.attributes);
    expect(resource["service.name"]).toBe("clawtools");
    expect(first.body.resourceSpans[0]!.scopeSpans[0]!.scope.name).toBe("@clawtools/mcp");

    const [found, failed, child] = spans();
    for (const span of [found!, failed!, child!]) {
      expect(span.name).toBe("tools/call read");
      expect(span.kind).toBe(2); // SERVER
      expect(attrs(span.attributes)).toMatchObject({
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "read",
        "gen_ai.operation.name": "execute_tool",
        "network.transport": "pipe",
        "clawtools.policy": "allow",
      });
      expect(attrs(span.attributes)["jsonrpc.request.id"]).toMatch(/^\d+$/);
    }
    expect(attrs(found!.attributes)["error.type"]).toBeUndefined();
    expect(attrs(failed!.attributes)["error.type"]).toBe("tool_error");
    expect(failed!.status?.code).toBe(2); // ERROR
    expect(child!.traceId).toBe(HOST_TRACE);
    expect(child!.parentSpanId).toBe(HOST_SPAN);
  }, 60_000);

  it("exports the duration histogram of the calls to /v1/metrics when serve stops", async () => {
    const service = "clawtools-metrics-e2e";
    const ours = () =>
      received
        .filter((r) => r.path === "/v1/metrics")
        .map((r) => ({ ...r, ...otlpMetrics(r.body) }))
        .filter((r) => r.resource["service.name"] === service);
    const from = BigInt(Date.now()) * 1_000_000n;
    // no OTEL_METRIC_EXPORT_INTERVAL: the default minute does not pass, so what arrives is the flush at the stop
    const { client, stderr } = await connectCli(["serve", "--otel", "--workspace", dir], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: service },
    });
    await client.callTool({ name: "read", arguments: { path: "notes.txt" } });
    await client.callTool({ name: "read", arguments: { path: "notes.txt" } });
    expect((await client.callTool({ name: "read", arguments: { path: "absent.txt" } })).isError).toBe(true);
    await client.callTool({ name: "ls", arguments: {} });
    await expect.poll(stderr, POLL).toContain(`metrics: OTLP/HTTP (JSON) to ${endpoint}/v1/metrics`);
    expect(ours()).toEqual([]);
    await client.close();

    await expect.poll(() => ours().length, { timeout: 15_000 }).toBeGreaterThan(0);
    const to = BigInt(Date.now()) * 1_000_000n;
    for (const request of ours()) expect(request.type).toContain("application/json");
    const durations = ours()
      .flatMap((r) => r.metrics)
      .filter((m) => m.name === "mcp.server.operation.duration");
    expect(durations).toHaveLength(1);
    const [duration] = durations;
    expect(duration).toMatchObject({ scope: "@clawtools/mcp", unit: "s" });
    expect(duration!.histogram?.aggregationTemporality).toBe(2); // CUMULATIVE
    const points = duration!.histogram!.dataPoints;
    const countOf = (tool: string, errorType?: string) =>
      points
        .filter((p) => p.attributes["gen_ai.tool.name"] === tool && p.attributes["error.type"] === errorType)
        .reduce((n, p) => n + Number(p.count), 0);
    expect([countOf("read"), countOf("read", "tool_error"), countOf("ls")]).toEqual([2, 1, 1]);
    for (const p of points) {
      expect(p.attributes).toMatchObject({ "mcp.method.name": "tools/call", "network.transport": "pipe" });
      expect(p.explicitBounds).toEqual(CONVENTION_BUCKETS);
      expect(p.bucketCounts).toHaveLength(CONVENTION_BUCKETS.length + 1);
      expect(p.bucketCounts.reduce((a, b) => a + b, 0n)).toBe(p.count);
      // seconds a call of a small file took: more than nothing, well under a minute
      expect(p.min).toBeGreaterThan(0);
      expect(p.max).toBeGreaterThanOrEqual(p.min);
      expect(p.max).toBeLessThan(60);
      expect(p.sum).toBeGreaterThanOrEqual(p.min * Number(p.count) * 0.999);
      expect(p.sum).toBeLessThanOrEqual(p.max * Number(p.count) * 1.001);
      // the first bucket that counts a call is the one the fastest call falls in
      const firstHit = p.bucketCounts.findIndex((c) => c > 0n);
      expect(CONVENTION_BUCKETS[firstHit] ?? Number.POSITIVE_INFINITY).toBeGreaterThanOrEqual(p.min);
      expect(CONVENTION_BUCKETS[firstHit - 1] ?? 0).toBeLessThan(p.min);
      expect(p.startTimeUnixNano).toBeGreaterThanOrEqual(from - 1_000_000_000n);
      expect(p.timeUnixNano).toBeGreaterThanOrEqual(p.startTimeUnixNano);
      expect(p.timeUnixNano).toBeLessThanOrEqual(to);
    }
  }, 60_000);

  it("a metric setting it cannot use is refused at start in one line", () => {
    const run = spawnSync(process.execPath, [bin, "serve", "--otel", "--workspace", dir], {
      input: "",
      encoding: "utf8",
      env: { ...process.env, OTEL_METRIC_EXPORT_INTERVAL: "soon" },
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr.trim()).toBe(
      "clawtools: OTEL_METRIC_EXPORT_INTERVAL=soon is not a number of milliseconds: set a positive whole number or unset it (see clawtools serve --help)",
    );
  });

  it("a protocol the exporter cannot speak is refused at start in one line", () => {
    const run = spawnSync(process.execPath, [bin, "serve", "--otel", "--workspace", dir], {
      input: "",
      encoding: "utf8",
      env: { ...process.env, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" },
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr.trim()).toBe(
      "clawtools: --otel exports OTLP over HTTP as JSON; OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported: set it to http/json or unset it (see clawtools serve --help)",
    );
  });
});
