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
import { connectCli } from "./support/serve.js";

type AnyValue = { stringValue?: string; intValue?: string | number };
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

const HOST_TRACE = "0af7651916cd43dd8448eb211c80319c";
const HOST_SPAN = "b7ad6b7169203331";
const attrs = (list: Array<{ key: string; value: AnyValue }>) =>
  Object.fromEntries(list.map(({ key, value }) => [key, value.stringValue ?? value.intValue]));

describe("clawtools serve --otel", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-otel-"));
  const exports: Array<{ path: string; type: string; body: Export }> = [];
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
        exports.push({
          path: req.url ?? "",
          type: req.headers["content-type"] ?? "",
          body: JSON.parse(body) as Export,
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
      exports.flatMap((e) => e.body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
    await expect.poll(spans, { timeout: 15_000 }).toHaveLength(3);
    expect(exports[0]).toMatchObject({
      path: "/v1/traces",
      type: expect.stringContaining("application/json"),
    });
    const resource = attrs(exports[0]!.body.resourceSpans[0]!.resource.attributes);
    expect(resource["service.name"]).toBe("clawtools");
    expect(exports[0]!.body.resourceSpans[0]!.scopeSpans[0]!.scope.name).toBe("@clawtools/mcp");

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
